package dev.sluice.batch.engine.warehouse;

import dev.sluice.batch.bronze.LandedFileRepository;
import dev.sluice.batch.engine.TransformResult;
import dev.sluice.batch.warehouse.LayerTables;
import dev.sluice.config.ColumnSpec;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.QuarantineRule;
import dev.sluice.config.TableSpec;
import dev.sluice.core.Layer;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jooq.CaseConditionStep;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.JSONEntry;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * Writes one partition of a Silver or Gold table with set-based SQL, in the caller's transaction:
 * <ol>
 *   <li>Silver only: input rows matching a quarantine rule (first match wins) replace the
 *       partition's OPEN rows in {@code sluice.quarantine}, raw record as JSON;</li>
 *   <li>the partition's next version is inserted into {@code table_versions} from the spec's
 *       SELECT, whose {@code {input}} is the partition's input rows (Silver: the current Bronze
 *       load minus quarantined rows, Gold: the input's published version) and whose
 *       {@code {partition}} is bound to the partition key; its key is checked;</li>
 *   <li>the version is recorded in {@code sluice.partition_version} with the fingerprint of what
 *       it was built from ({@link SnapshotFingerprint}) and published ({@link PartitionVersions});
 *       versions older than the spec's {@code versions.keep} are pruned.</li>
 * </ol>
 * A rollup table ({@link TableSpec#rollup()}) writes the rollup partition containing the run's
 * partition from every published input partition inside it.
 * A reference snapshot ({@code partition: none}) whose fingerprint equals its newest version's is
 * not rewritten: every partition run reads the same snapshot, and concurrent runs do not contend
 * for it.
 * A rule whose condition is NULL for a row does not match it, so every input row lands in exactly
 * one of Silver (possibly collapsed) or quarantine. Re-running leaves the same rows. Thread-safe.
 */
final class LayerTransform {

    private static final Table<?> QUARANTINE = DSL.table(DSL.name("sluice", "quarantine"));
    /** Rule id of a row whose values broke its contract while being read. */
    public static final String CONTRACT_VIOLATION = "contract_violation";
    /** Rule id of a row of a column-partitioned source without a partition value. */
    public static final String PARTITION_VALUE_MISSING = "partition_value_missing";
    /** Characters of {@code _parse_errors} quoted in a quarantine reason (the whole of it is in record_json). */
    private static final int REASON_CHARS = 900;
    private static final Table<?> VERSIONS = DSL.table(DSL.name("sluice", "partition_version"));

    private final DSLContext dsl;
    private final PipelineSpec spec;
    private final TableSpec table;
    private final TableSpec input;

    public LayerTransform(DSLContext dsl, PipelineSpec spec, TableSpec table) {
        this.dsl = dsl;
        this.spec = spec;
        this.table = table;
        this.input = spec.table(table.inputTable().orElseThrow())
                .orElseThrow(() -> new IllegalArgumentException("no input table for " + table.table()));
    }

    /** Writes {@code partition} (use {@link Partition#NONE} for a snapshot table) as run {@code run}. */
    public TransformResult apply(Partition partition, RunId run) {
        Partition out = table.outputPartition(partition);
        List<Rule> rules = rules();
        Field<Integer> ruleIndex = ruleIndex(rules);
        Condition inputRows = inputCondition(partition);

        long inputCount = dsl.fetchCount(DSL.selectOne().from(inputTable()).where(inputRows));
        String fingerprint = table.isRollup()
                ? SnapshotFingerprint.ofRange(dsl, table, input, inputRange(out))
                : SnapshotFingerprint.of(dsl, table, input, input.partitioned() ? partition : Partition.NONE);
        var last = latestVersion(out);
        if (!table.partitioned() && last != null && fingerprint.equals(last.value2())) {
            return new TransformResult(inputCount, 0, 0, 0, last.value1(), true);
        }
        long quarantined = 0;
        if (!rules.isEmpty()) {
            Condition ofPartition = DSL.field(DSL.name("pipeline")).eq(spec.name())
                    .and(DSL.field(DSL.name("dataset")).eq(table.table().qualifiedName()))
                    .and(DSL.field(DSL.name("partition_key")).eq(out.key()));
            // the partition's OPEN entries are judged again: set aside, then replaced or resolved
            dsl.update(QUARANTINE).set(STATUS, PENDING).where(ofPartition, STATUS.eq(OPEN)).execute();
            quarantined = quarantine(rules, inputRows, ruleIndex, out, run);
            resolvePending(ofPartition, inputRows);
        }

        Table<?> target = LayerTables.table(LayerTables.versions(table.table()));
        Field<String> partitionCol = DSL.field(DSL.name("_partition"), String.class);
        int version = last == null ? 1 : last.value1() + 1;
        Condition thisVersion = partitionCol.eq(out.key()).and(VERSION_COL.eq(version));
        dsl.deleteFrom(target).where(thisVersion).execute(); // leftovers of a write that never committed its version

        Condition kept = rules.isEmpty() ? inputRows : inputRows.and(ruleIndex.eq(0));
        Table<?> inputPart = DSL.table("({0})", inputSelect().where(kept));
        String template = table.sql().replace("{input}", "{0}").replace("{partition}", "{1}");
        Table<?> q = DSL.table("(" + template + ")", inputPart, DSL.val(out == Partition.NONE ? partition.key() : out.key())).as("q");

        List<Field<?>> targetFields = new ArrayList<>();
        List<Field<?>> selected = new ArrayList<>();
        for (ColumnSpec c : table.columns()) {
            targetFields.add(DSL.field(DSL.name(c.name())));
            selected.add(DSL.field(DSL.name("q", c.name())));
        }
        targetFields.add(partitionCol);
        targetFields.add(DSL.field(DSL.name("_run_id")));
        targetFields.add(VERSION_COL);
        selected.add(DSL.val(out.key()));
        selected.add(DSL.val(run.toString()));
        selected.add(DSL.val(version));
        long written = dsl.insertInto(target, targetFields).select(DSL.select(selected).from(q)).execute();
        if (table.mergeOnKey()) {
            written += carryOver(target, targetFields, out, version, run);
        }

        checkKey(target, thisVersion, out);
        long collapsed = 0;
        if (table.columns().stream().anyMatch(c -> c.name().equals("dup_count"))) {
            Long sum = dsl.select(DSL.sum(DSL.field(DSL.name("dup_count"), Long.class).minus(1)).cast(Long.class))
                    .from(target).where(thisVersion).fetchOne(0, Long.class);
            collapsed = sum == null ? 0 : sum;
        }
        recordVersion(out, run, written, fingerprint, version);
        if (!table.hasGate()) {
            publish(out, version, run);
        }
        return new TransformResult(inputCount, written, quarantined, collapsed, version, false);
    }

    /**
     * {@code write: merge-on-key}: the published version's rows of the partition whose key the new
     * version lacks are carried into it, so the new version is the old one upserted by key. One
     * INSERT … SELECT … WHERE NOT EXISTS.
     *
     * @return the rows carried over
     */
    private long carryOver(Table<?> target, List<Field<?>> targetFields, Partition out, int version, RunId run) {
        Optional<Integer> published = new PartitionVersions(dsl).published(table.table(), out);
        if (published.isEmpty()) {
            return 0;
        }
        Table<?> old = target.as("o");
        Table<?> now = target.as("n");
        List<Field<?>> carried = new ArrayList<>();
        for (ColumnSpec c : table.columns()) {
            carried.add(DSL.field(DSL.name("o", c.name())));
        }
        carried.add(DSL.val(out.key()));
        carried.add(DSL.val(run.toString()));
        carried.add(DSL.val(version));
        List<Condition> sameKey = new ArrayList<>();
        for (String k : table.key()) {
            sameKey.add(DSL.field(DSL.name("n", k)).eq(DSL.field(DSL.name("o", k))));
        }
        return dsl.insertInto(target, targetFields).select(DSL.select(carried).from(old)
                .where(DSL.field(DSL.name("o", "_partition")).eq(out.key()), DSL.field(DSL.name("o", "_version")).eq(published.get()))
                .andNotExists(DSL.selectOne().from(now).where(DSL.field(DSL.name("n", "_partition")).eq(out.key()),
                        DSL.field(DSL.name("n", "_version")).eq(version)).and(DSL.and(sameKey)))).execute();
    }

    /** Rows of the partition's input (Silver: the current Bronze load, quarantined rows included). */
    public long inputCount(Partition partition) {
        return dsl.fetchCount(DSL.selectOne().from(inputTable()).where(inputCondition(partition)));
    }

    /**
     * The input partitions a run of {@code partition} reads: its own (a snapshot input: none), or
     * for a rollup every input partition inside the rollup partition, as first and last key.
     */
    public Partition[] inputPartitions(Partition partition) {
        if (table.isRollup()) {
            return inputRange(table.outputPartition(partition));
        }
        Partition in = input.partitioned() ? partition : Partition.NONE;
        return new Partition[] {in, in};
    }

    private Partition[] inputRange(Partition out) {
        return TableSpec.inputRange(out, spec.partitionKind());
    }

    /**
     * Publishes {@code version} of partition {@code out} and prunes versions older than the spec's
     * {@code versions.keep}. A table with quality checks is published by its gate step, after the
     * checks held; a table without them right after it is written.
     */
    public void publish(Partition out, int version, RunId run) {
        new PartitionVersions(dsl).publish(table.table(), out, version, run);
        if (!table.partitioned() && dsl.dialect().family() == org.jooq.SQLDialect.POSTGRES) {
            // a reference snapshot is joined row by row through its view: give PostgreSQL's planner
            // statistics at once rather than after autovacuum (without them a lookup of 16k rows took 21 s)
            dsl.execute("ANALYZE " + LayerTables.versions(table.table()).qualifiedName());
            dsl.execute("ANALYZE sluice.published_partition");
        }
        Table<?> target = LayerTables.table(LayerTables.versions(table.table()));
        dsl.deleteFrom(target).where(DSL.field(DSL.name("_partition"), String.class).eq(out.key()),
                VERSION_COL.le(version - spec.keepVersions())).execute();
    }

    /**
     * The declared key identifies one row: no NULL in a key column, no key value twice. A violation
     * fails the step (its transaction rolls back, nothing is written) with examples.
     *
     * @throws SluiceException naming the table, key and offending values
     */
    private void checkKey(Table<?> target, Condition thisVersion, Partition out) {
        if (table.key().isEmpty()) {
            return;
        }
        List<Field<Object>> key = table.key().stream().map(k -> DSL.field(DSL.name(k))).toList();
        Condition anyNull = DSL.or(key.stream().map(Field::isNull).toList());
        long nulls = dsl.fetchCount(DSL.selectOne().from(target).where(thisVersion).and(anyNull));
        if (nulls > 0) {
            throw new dev.sluice.core.SluiceException(table.table() + ": " + nulls + " row(s) of partition " + out
                    + " have a NULL in key " + table.key() + "; a key identifies one row");
        }
        var dupes = dsl.select(key).select(DSL.count()).from(target).where(thisVersion)
                .groupBy(key).having(DSL.count().gt(1)).limit(3).fetch();
        if (!dupes.isEmpty()) {
            String examples = dupes.stream().map(r -> r.intoList().subList(0, key.size()) + " ×" + r.get(key.size()))
                    .collect(java.util.stream.Collectors.joining(", "));
            throw new dev.sluice.core.SluiceException(table.table() + ": key " + table.key() + " is not unique in partition "
                    + out + " (" + examples + "); a key identifies one row: check the input for duplicates");
        }
    }

    /**
     * What {@code {input}} selects from: for Silver over a source with PII policies, the Bronze
     * columns with PII hashed, masked or dropped; otherwise every column.
     */
    private org.jooq.SelectJoinStep<?> inputSelect() {
        var source = inputSource();
        if (source != null) {
            PiiProjection pii = new PiiProjection(dsl.dialect(), source, spec.piiKeys());
            if (pii.transforms()) {
                var evolved = new dev.sluice.batch.contract.SchemaDriftRepository(dsl).evolvedColumns(spec.name(), source);
                return dsl.select(pii.fields(LayerTables.BRONZE_METADATA, evolved)).from(inputTable());
            }
        }
        return dsl.select(DSL.asterisk()).from(inputTable());
    }

    /** The source of a Bronze input table, or null when the input is not Bronze. */
    private dev.sluice.config.@org.jspecify.annotations.Nullable SourceSpec inputSource() {
        return input.layer() == Layer.BRONZE && input.source() != null ? spec.source(input.source()).orElse(null) : null;
    }

    private Table<?> inputTable() {
        return LayerTables.table(input.table()).as("b");
    }

    private Condition inputCondition(Partition partition) {
        Partition[] range = inputPartitions(partition);
        Field<String> key = DSL.field(DSL.name("b", "_partition"), String.class);
        Condition c = range[0].equals(range[1]) ? key.eq(range[0].key()) : key.between(range[0].key(), range[1].key());
        if (input.layer() == Layer.BRONZE) {
            c = c.and(LandedFileRepository.isCurrent(input.table().qualifiedName(), "b"));
        }
        return c;
    }

    /**
     * A quarantine rule as SQL: when it matches, its id and its reason.
     */
    private record Rule(Condition when, Field<String> id, Field<String> reason) {
    }

    /**
     * The rules in the order they are tried. For a Silver table fed by Bronze, the built-in rules
     * come first: {@code contract_violation} (a row whose values broke its contract while being
     * read, {@code _parse_errors}, with those errors as its reason), {@code partition_value_missing}
     * (a source partitioned by a column: the row has no value there), and the contract's allowed
     * values ({@link ContractRules}); then the spec's rules.
     */
    private List<Rule> rules() {
        List<Rule> rules = new ArrayList<>();
        if (input.layer() == Layer.BRONZE) {
            Field<String> errors = DSL.field(DSL.name("b", "_parse_errors"), String.class);
            rules.add(new Rule(errors.isNotNull(), DSL.inline(CONTRACT_VIOLATION),
                    DSL.concat(DSL.inline("the row breaks its contract: "), DSL.substring(errors, 1, REASON_CHARS))));
            var source = inputSource();
            if (source != null) {
                source.partitionColumnName().ifPresent(pc -> rules.add(new Rule(DSL.field(DSL.name("b", pc)).isNull(),
                        DSL.inline(PARTITION_VALUE_MISSING), DSL.inline("partition column " + pc
                                + " has no value, so the row belongs to no partition (it is quarantined by every partition of its file)"))));
                for (ContractRules.Rule r : ContractRules.of(source.contract())) {
                    rules.add(new Rule(r.when(), DSL.inline(r.id()), DSL.inline(r.reason())));
                }
            }
        }
        for (QuarantineRule r : table.quarantine()) {
            rules.add(new Rule(DSL.condition(r.when()), DSL.inline(r.id()), DSL.inline(r.reason())));
        }
        return rules;
    }

    /** 0 when no rule matches, else the 1-based index of the first matching rule. */
    private Field<Integer> ruleIndex(List<Rule> rules) {
        if (rules.isEmpty()) {
            return DSL.inline(0);
        }
        CaseConditionStep<Integer> c = DSL.when(rules.get(0).when(), DSL.inline(1));
        for (int i = 1; i < rules.size(); i++) {
            c = c.when(rules.get(i).when(), DSL.inline(i + 1));
        }
        return c.otherwise(DSL.inline(0));
    }

    private static final Field<String> STATUS = DSL.field(DSL.name("status"), String.class);
    private static final String OPEN = "OPEN";
    private static final String PENDING = "PENDING";

    /**
     * The partition's earlier OPEN entries after this run's rules: one whose row is quarantined
     * again (same source and position) is replaced by the new entry; one whose row now passes is
     * marked REPROCESSED (it is in this Silver version); one whose file is no longer in the input
     * (a newer load replaced it) is marked SUPERSEDED. Set-based: two statements.
     */
    private void resolvePending(Condition ofPartition, Condition inputRows) {
        Field<String> source = DSL.field(DSL.name("source"), String.class);
        Table<?> again = QUARANTINE.as("q2");
        dsl.deleteFrom(QUARANTINE).where(ofPartition, STATUS.eq(PENDING), DSL.exists(DSL.selectOne().from(again).where(
                DSL.field(DSL.name("q2", "status")).eq(OPEN),
                DSL.field(DSL.name("q2", "dataset")).eq(DSL.field(DSL.name("sluice", "quarantine", "dataset"))),
                DSL.field(DSL.name("q2", "partition_key")).eq(DSL.field(DSL.name("sluice", "quarantine", "partition_key"))),
                DSL.field(DSL.name("q2", "source")).eq(DSL.field(DSL.name("sluice", "quarantine", "source"))),
                DSL.field(DSL.name("q2", "source_pos")).eq(DSL.field(DSL.name("sluice", "quarantine", "source_pos")))))).execute();
        Field<String> inputSource = DSL.field(DSL.name("b", "_source"), String.class);
        dsl.update(QUARANTINE).set(STATUS, DSL.when(source.in(DSL.selectDistinct(inputSource).from(inputTable()).where(inputRows)),
                        DSL.inline("REPROCESSED")).otherwise(DSL.inline("SUPERSEDED")))
                .where(ofPartition, STATUS.eq(PENDING)).execute();
    }

    private long quarantine(List<Rule> rules, Condition inputRows, Field<Integer> ruleIndex, Partition out, RunId run) {
        CaseConditionStep<String> id = DSL.when(rules.get(0).when(), rules.get(0).id());
        CaseConditionStep<String> reason = DSL.when(rules.get(0).when(), rules.get(0).reason());
        for (int i = 1; i < rules.size(); i++) {
            id = id.when(rules.get(i).when(), rules.get(i).id());
            reason = reason.when(rules.get(i).when(), rules.get(i).reason());
        }
        List<JSONEntry<?>> entries = new ArrayList<>();
        for (ColumnSpec c : input.columns()) {
            entries.add(DSL.jsonEntry(DSL.inline(c.name()), DSL.field(DSL.name("b", c.name()))));
        }
        if (input.layer() == Layer.BRONZE) {
            entries.add(DSL.jsonEntry(DSL.inline("_parse_errors"), DSL.field(DSL.name("b", "_parse_errors"))));
        }
        Field<String> json = DSL.jsonObject(entries).cast(SQLDataType.VARCHAR);
        List<Field<?>> columns = new ArrayList<>();
        for (String n : List.of("pipeline", "dataset", "partition_key", "run_id", "source", "source_pos",
                "rule_id", "reason", "record_json", "quarantined_at", "status")) {
            columns.add(DSL.field(DSL.name(n)));
        }
        List<Field<?>> values = List.of(DSL.val(spec.name()), DSL.val(table.table().qualifiedName()),
                DSL.val(out.key()), DSL.val(run.toString()),
                DSL.field(DSL.name("b", "_source")), DSL.field(DSL.name("b", "_source_pos")),
                id.otherwise((String) null), reason.otherwise((String) null), json,
                DSL.val(OffsetDateTime.now(ZoneOffset.UTC)), DSL.val("OPEN"));
        return dsl.insertInto(QUARANTINE, columns)
                .select(DSL.select(values).from(inputTable()).where(inputRows).and(ruleIndex.ne(0)))
                .execute();
    }

    private static final Field<Integer> VERSION = DSL.field(DSL.name("version"), Integer.class);
    private static final Field<Integer> VERSION_COL = DSL.field(DSL.name("_version"), Integer.class);
    private static final Field<String> DATASET = DSL.field(DSL.name("dataset"), String.class);
    private static final Field<String> PARTITION_KEY = DSL.field(DSL.name("partition_key"), String.class);
    private static final Field<String> FINGERPRINT = DSL.field(DSL.name("input_fingerprint"), String.class);

    /** The newest (version, input fingerprint) of a partition of this table, or null. */
    private org.jooq.@org.jspecify.annotations.Nullable Record2<Integer, String> latestVersion(Partition out) {
        return dsl.select(VERSION, FINGERPRINT).from(VERSIONS)
                .where(DATASET.eq(table.table().qualifiedName()), PARTITION_KEY.eq(out.key()))
                .orderBy(VERSION.desc()).limit(1).fetchOne();
    }

    private void recordVersion(Partition out, RunId run, long rows, String fingerprint, int version) {
        dsl.insertInto(VERSIONS).set(DATASET, table.table().qualifiedName()).set(PARTITION_KEY, out.key())
                .set(VERSION, version).set(DSL.field(DSL.name("pipeline"), String.class), spec.name())
                .set(DSL.field(DSL.name("run_id"), String.class), run.toString())
                .set(DSL.field(DSL.name("row_count"), Long.class), rows)
                .set(DSL.field(DSL.name("published_at"), OffsetDateTime.class), OffsetDateTime.now(ZoneOffset.UTC))
                .set(FINGERPRINT, fingerprint)
                .execute();
    }
}
