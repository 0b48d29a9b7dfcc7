package dev.sluice.engine.warehouse;

import dev.sluice.control.version.PartitionVersions;
import dev.sluice.control.version.SnapshotFingerprint;
import dev.sluice.engine.TransformResult;
import dev.sluice.config.ColumnSpec;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import dev.sluice.core.SluiceException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * Writes one partition of a Silver or Gold table with set-based SQL, in the caller's transaction:
 * <ol>
 *   <li>input rows matching a quarantine rule replace the partition's OPEN rows in
 *       {@code sluice.quarantine} ({@link PartitionQuarantine});</li>
 *   <li>the partition's next version is inserted into {@code table_versions} from the spec's
 *       SELECT, whose {@code {input}} is the partition's input rows ({@link LayerInput}: Silver,
 *       the current Bronze load minus quarantined rows; Gold, the input's published version) and
 *       whose {@code {partition}} is bound to the partition key; its key is checked;</li>
 *   <li>the version is recorded in {@code sluice.partition_version} with the fingerprint of what
 *       it was built from ({@link SnapshotFingerprint}) and, for a table without quality checks,
 *       published ({@link PartitionPublisher}).</li>
 * </ol>
 * A rollup table ({@link TableSpec#rollup()}) writes the rollup partition containing the run's
 * partition from every published input partition inside it.
 * A reference snapshot ({@code partition: none}) whose fingerprint equals its newest version's is
 * not rewritten (for {@code merge-on-key}, when that version also holds the published one): every
 * partition run reads the same snapshot, and concurrent runs do not contend for it. Re-running
 * leaves the same rows. A {@code merge-on-key} version records the published version it was built
 * on, and is published only while that one still is ({@link PartitionPublisher}). Thread-safe.
 */
final class LayerTransform {

    private static final Field<Integer> VERSION_COL = DSL.field(DSL.name("_version"), Integer.class);
    private static final Field<String> PARTITION_COL = DSL.field(DSL.name("_partition"), String.class);

    private final DSLContext dsl;
    private final PipelineSpec spec;
    private final TableSpec table;
    private final LayerInput input;
    private final PartitionVersions versions;

    /**
     * @throws IllegalArgumentException when {@code table} names no input table of {@code spec}
     */
    LayerTransform(DSLContext dsl, PipelineSpec spec, TableSpec table) {
        this.dsl = dsl;
        this.spec = spec;
        this.table = table;
        this.input = new LayerInput(dsl, spec, table);
        this.versions = new PartitionVersions(dsl);
    }

    /**
     * Writes {@code partition} (use {@link Partition#NONE} for a snapshot table) as run {@code run}.
     *
     * @throws SluiceException when the version breaks the table's key ({@link #checkKey})
     */
    TransformResult apply(Partition partition, RunId run) {
        Partition out = table.outputPartition(partition);
        PartitionQuarantine quarantine = new PartitionQuarantine(dsl, spec, table, input);
        Condition inputRows = input.condition(partition);

        long inputCount = dsl.fetchCount(DSL.selectOne().from(input.table()).where(inputRows));
        String fingerprint = table.isRollup()
                ? SnapshotFingerprint.ofRange(dsl, table, input.spec(), input.range(out))
                : SnapshotFingerprint.of(dsl, table, input.spec(), input.spec().partitioned() ? partition : Partition.NONE);
        PartitionVersions.Written last = versions.newest(table.table(), out);
        if (!table.partitioned() && last != null && fingerprint.equals(last.inputFingerprint()) && versions.settles(table, out, last)) {
            return new TransformResult(inputCount, 0, 0, 0, last.version(), true);
        }
        // merge-on-key: the version is built on the one published now, and published only while that one still is
        Integer base = table.mergeOnKey() ? versions.published(table.table(), out).orElse(null) : null;
        long quarantined = quarantine.hasRules() ? quarantine.judge(inputRows, out, run) : 0;

        Table<?> target = LayerTables.table(LayerTables.versions(table.table()));
        int version = last == null ? 1 : last.version() + 1;
        Condition thisVersion = PARTITION_COL.eq(out.key()).and(VERSION_COL.eq(version));
        dsl.deleteFrom(target).where(thisVersion).execute(); // leftovers of a write that never committed its version

        Table<?> inputPart = DSL.table("({0})", input.select().where(quarantine.kept(inputRows, quarantined)));
        String template = table.sql().replace("{input}", "{0}").replace("{partition}", "{1}");
        Table<?> q = DSL.table("(" + template + ")", inputPart, DSL.val(out.equals(Partition.NONE) ? partition.key() : out.key())).as("q");

        List<Field<?>> targetFields = new ArrayList<>();
        List<Field<?>> selected = new ArrayList<>();
        for (ColumnSpec c : table.columns()) {
            targetFields.add(DSL.field(DSL.name(c.name())));
            selected.add(DSL.field(DSL.name("q", c.name())));
        }
        targetFields.add(PARTITION_COL);
        targetFields.add(DSL.field(DSL.name("_run_id")));
        targetFields.add(VERSION_COL);
        selected.add(DSL.val(out.key()));
        selected.add(DSL.val(run.toString()));
        selected.add(DSL.val(version));
        long written = dsl.insertInto(target, targetFields).select(DSL.select(selected).from(q)).execute();
        if (base != null) {
            written += carryOver(target, targetFields, out, version, run, base);
        }

        checkKey(target, thisVersion, out);
        long collapsed = collapsed(target, thisVersion);
        versions.recordWritten(table.table(), out, version, spec.name(), run, written, fingerprint, base);
        if (!table.hasGate()) {
            new PartitionPublisher(dsl, spec, table).publish(out, version, run);
        }
        return new TransformResult(inputCount, written, quarantined, collapsed, version, false);
    }

    /**
     * {@code write: merge-on-key}: the rows of the partition's published version {@code base} whose
     * key the new version lacks are carried into it, so the new version is the old one upserted by
     * key. One INSERT … SELECT … WHERE NOT EXISTS.
     *
     * @return the rows carried over
     */
    private long carryOver(Table<?> target, List<Field<?>> targetFields, Partition out, int version, RunId run, int base) {
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
                .where(DSL.field(DSL.name("o", "_partition")).eq(out.key()), DSL.field(DSL.name("o", "_version")).eq(base))
                .andNotExists(DSL.selectOne().from(now).where(DSL.field(DSL.name("n", "_partition")).eq(out.key()),
                        DSL.field(DSL.name("n", "_version")).eq(version)).and(DSL.and(sameKey)))).execute();
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
            throw new SluiceException(table.table() + ": " + nulls + " row(s) of partition " + out
                    + " have a NULL in key " + table.key() + "; a key identifies one row");
        }
        var dupes = dsl.select(key).select(DSL.count()).from(target).where(thisVersion)
                .groupBy(key).having(DSL.count().gt(1)).limit(3).fetch();
        if (!dupes.isEmpty()) {
            String examples = dupes.stream().map(r -> r.intoList().subList(0, key.size()) + " ×" + r.get(key.size()))
                    .collect(Collectors.joining(", "));
            throw new SluiceException(table.table() + ": key " + table.key() + " is not unique in partition "
                    + out + " (" + examples + "); a key identifies one row: check the input for duplicates");
        }
    }

    /** Duplicates collapsed: Σ(dup_count − 1) over the version when the table has a {@code dup_count} column, else 0. */
    private long collapsed(Table<?> target, Condition thisVersion) {
        if (table.columns().stream().noneMatch(c -> c.name().equals("dup_count"))) {
            return 0;
        }
        Long sum = dsl.select(DSL.sum(DSL.field(DSL.name("dup_count"), Long.class).minus(1)).cast(Long.class))
                .from(target).where(thisVersion).fetchOne(0, Long.class);
        return sum == null ? 0 : sum;
    }
}
