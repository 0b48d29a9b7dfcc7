package dev.sluice.engine.lakehouse;

import dev.sluice.control.landing.LandedFileRepository;
import dev.sluice.engine.StagedWrite;
import dev.sluice.engine.TransformResult;
import dev.sluice.control.version.PartitionVersions;
import dev.sluice.control.version.SnapshotFingerprint;
import dev.sluice.engine.ContractRules;
import dev.sluice.config.ColumnSpec;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.QuarantineRule;
import dev.sluice.config.SourceSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.Layer;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import dev.sluice.core.SluiceException;
import dev.sluice.spark.SparkJobDescription;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.storage.StorageLevel;
import org.jooq.DSLContext;
import org.jspecify.annotations.Nullable;
import org.jooq.SQLDialect;
import org.jooq.conf.RenderQuotedNames;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;

/**
 * Writes partitions of a lakehouse Silver or Gold table with Spark SQL in the JVM's one
 * SparkSession (the lakehouse catalog's session): one partition (a job's step), or every partition
 * of a backfill wave in one go.
 * <ol>
 *   <li>the partitions' input rows ({@link LakehouseInput}; a wave's in one scan) are judged by the
 *       quarantine rules in one CASE (first match wins; the built-in rules of a Silver table over
 *       Bronze first, as on the warehouse engine); the matching rows go to {@code sluice.quarantine}
 *       ({@link LakehouseQuarantine});</li>
 *   <li>the spec's SELECT runs over each partition's kept rows ({@code {input}}), {@code {partition}}
 *       bound to its key, its columns cast to the declared types; the results of a wave are one
 *       UNION ALL, so the counts, the key check and the write below are one Spark job each for the
 *       wave. A partition whose rows break the declared key is left out;</li>
 *   <li>the versions are staged on branches ({@link PartitionBranches}), made from main, where
 *       readers do not see them: one Iceberg commit writes them all to the first partition's
 *       branch ({@code overwrite-partition}: an overwrite by filter on {@code _sluice_partition},
 *       so an empty result empties the partition, which a dynamic overwrite would not;
 *       {@code merge-on-key}: one {@code MERGE INTO}), then one change of refs points every other
 *       partition's branch at that snapshot: each branch holds its partition's new files;</li>
 *   <li>each partition's version is recorded in {@code sluice.partition_version} by its own
 *       {@link StagedWrite} (its job's step transaction); a table without checks publishes it at
 *       once ({@link LakehousePublisher}), a table with checks when its gate, judging the branch,
 *       passes.</li>
 * </ol>
 * A reference snapshot whose input has not changed is not rewritten. Thread-safe: every temporary
 * view has a name of its own.
 */
final class LakehouseTransform {

    private static final String RULE = "__sluice_rule";
    private static final String REASON = "__sluice_reason";
    /** The job partition an input row belongs to (a wave reads its members' inputs in one scan). */
    private static final String MEMBER = "__sluice_member";
    private static final int PARSE_ERROR_CHARS = 900;

    private final SparkSession spark;
    private final DSLContext dsl;
    private final PipelineSpec spec;
    private final TableSpec table;
    private final LakehouseInput input;
    private final PartitionVersions versions;
    private final org.apache.iceberg.catalog.Catalog catalog;

    LakehouseTransform(SparkSession spark, org.apache.iceberg.catalog.Catalog catalog, DSLContext dsl, PipelineSpec spec, TableSpec table) {
        this.spark = spark;
        this.catalog = catalog;
        this.dsl = dsl;
        this.spec = spec;
        this.table = table;
        this.input = new LakehouseInput(spark, dsl, spec, table);
        this.versions = new PartitionVersions(dsl);
    }

    /**
     * One partition to write: the job's partition, the table partition it writes, its run, input
     * fingerprint and version, and for {@code merge-on-key} the published version it is built on.
     */
    private record Member(Partition partition, Partition out, RunId run, String fingerprint, int version, @Nullable Integer base) {
        String branch() {
            return PartitionBranches.name(out, version);
        }
    }

    /** What the wave's job computed for one partition. */
    private record Figures(long input, long written, long collapsed, List<LakehouseQuarantine.Row> quarantined) {
    }

    /**
     * Whether a wave may write {@code table} in one job: a partitioned table, not a rollup, whose
     * every partition reads exactly its own input partition.
     */
    static boolean writesWaves(PipelineSpec spec, TableSpec table) {
        if (!table.partitioned() || table.isRollup() || table.layer() == Layer.BRONZE) {
            return false;
        }
        TableSpec in = spec.table(table.inputTable().orElseThrow()).orElseThrow();
        return in.partitioned() && !in.isRollup();
    }

    /**
     * Writes {@code partition} (the job's) as run {@code run}.
     *
     * @throws SluiceException when the result breaks the table's key; nothing is written then
     */
    TransformResult apply(Partition partition, RunId run) {
        return stage(new TreeMap<>(Map.of(partition, run))).get(partition).record();
    }

    /**
     * Stages the next version of every partition of {@code runs} (one partition, or a wave's whose
     * partitions each read their own input partition: {@link #writesWaves}); each is recorded by
     * its {@link StagedWrite}, which throws for a partition whose rows break the table's key.
     */
    Map<Partition, StagedWrite> stage(SortedMap<Partition, RunId> runs) {
        Map<Partition, StagedWrite> out = new LinkedHashMap<>();
        List<Member> members = new ArrayList<>();
        TableSpec in = input.spec();
        for (Map.Entry<Partition, RunId> e : runs.entrySet()) {
            Partition partition = e.getKey();
            Partition o = table.outputPartition(partition);
            String fingerprint = table.isRollup()
                    ? SnapshotFingerprint.ofRange(dsl, table, in, input.partitions(partition))
                    : SnapshotFingerprint.of(dsl, table, in, in.partitioned() ? partition : Partition.NONE);
            PartitionVersions.Written last = versions.newest(table.table(), o);
            if (!table.partitioned() && last != null && fingerprint.equals(last.inputFingerprint()) && versions.settles(table, o, last)) {
                long rows = input.rows(partition).count();
                out.put(partition, () -> new TransformResult(rows, 0, 0, 0, last.version(), true));
                continue;
            }
            // merge-on-key: the branch is made from main, which holds the published version; published only while it still is
            Integer base = table.mergeOnKey() ? versions.published(table.table(), o).orElse(null) : null;
            members.add(new Member(partition, o, e.getValue(), fingerprint, last == null ? 1 : last.version() + 1, base));
        }
        if (members.isEmpty()) {
            return out;
        }
        if (members.size() > 1 && !writesWaves(spec, table)) {
            throw new UnsupportedOperationException(table.table() + " is not written by waves: its partitions do not each read their own input partition");
        }
        String described = "sluice " + spec.name() + " " + table.table() + " " + members.get(0).partition().key()
                + (members.size() == 1 ? "" : ".." + members.get(members.size() - 1).partition().key() + " (" + members.size() + " partitions)");
        try (SparkJobDescription d = SparkJobDescription.of(spark, described)) {
            return stage(members, out);
        }
    }

    /** {@link #stage(SortedMap)}'s one Spark job for the members that need a new version; {@code out} holds the others. */
    private Map<Partition, StagedWrite> stage(List<Member> members, Map<Partition, StagedWrite> out) {
        Dataset<Row> rows = members.size() == 1
                ? input.rows(members.get(0).partition()).withColumn(MEMBER, functions.lit(members.get(0).partition().key()))
                : input.rows(members.stream().map(Member::partition).toList())
                        .withColumn(MEMBER, functions.col(LakehouseNames.LOGICAL_PARTITION));
        List<String> views = new ArrayList<>();
        String inputView = view("input", views);
        rows.createOrReplaceTempView(inputView);
        Dataset<Row> judged = spark.sql("SELECT b.*, " + ruleCase() + " FROM " + inputView + " b").persist(StorageLevel.MEMORY_AND_DISK());
        Dataset<Row> result = null;
        try {
            Map<String, Long> inputCounts = countBy(judged.groupBy(MEMBER).count());
            Map<String, List<LakehouseQuarantine.Row>> quarantined = quarantined(judged);
            Dataset<Row> kept = judged.where(RULE + " IS NULL").drop(RULE, REASON);
            SourceSpec source = input.source();
            if (source != null && LakehousePii.transforms(source)) {
                kept = LakehousePii.apply(kept, source, spec.piiKeys()); // rules judged the raw values; the SELECT never sees them
            }
            for (Member m : members) {
                String keptView = view("kept", views);
                kept.where(functions.col(MEMBER).equalTo(m.partition().key())).drop(MEMBER).createOrReplaceTempView(keptView);
                Dataset<Row> one = spark.sql(SparkDialect.toSpark(table.sql().replace("{input}", keptView)
                        .replace("{partition}", LakehouseInput.quote((m.out().equals(Partition.NONE) ? m.partition() : m.out()).key()))))
                        .selectExpr(select(m));
                result = result == null ? one : result.union(one);
            }
            result = result.persist(StorageLevel.MEMORY_AND_DISK());
            Map<String, long[]> figures = figures(result);
            Map<String, String> broken = keyProblems(result, figures);
            List<Member> ok = new ArrayList<>();
            for (Member m : members) {
                String problem = broken.get(m.out().key());
                if (problem != null) {
                    out.put(m.partition(), () -> {
                        throw new SluiceException(problem);
                    });
                } else {
                    ok.add(m);
                }
            }
            // a snapshot's or rollup's version number is claimed before its branch is staged (runs of other partitions, in
            // other processes too, write the same table partition); a wave's members are each their own partition's
            boolean claimed = !writesWaves(spec, table);
            if (claimed) {
                ok.forEach(this::claim);
            }
            Map<String, Long> written = ok.isEmpty() ? Map.of() : write(result, ok);
            for (Member m : ok) {
                long[] f = figures.getOrDefault(m.out().key(), new long[3]);
                Figures mine = new Figures(inputCounts.getOrDefault(m.partition().key(), 0L),
                        table.mergeOnKey() ? written.getOrDefault(m.out().key(), 0L) : f[0], f[2],
                        quarantined.getOrDefault(m.partition().key(), List.of()));
                out.put(m.partition(), () -> record(m, mine, claimed));
            }
            return out;
        } finally {
            judged.unpersist();
            if (result != null) {
                result.unpersist();
            }
            views.forEach(v -> spark.catalog().dropTempView(v));
        }
    }

    /**
     * Records {@code m}'s version before its branch is staged, in its step's transaction, with no rows yet: another run that
     * takes the same number (another process: one process's writers of a snapshot take its lock in turn) waits for this
     * transaction on the record's key and then fails, retriably ({@link PartitionVersions#recordWritten}), before it stages
     * anything. Staged first, the second's staging replaced the first's branch of that number, and the first could publish
     * the second's rows as its own (a merge-on-key snapshot then lost the first's rows: {@code TwoProcessesLakehouseIT}).
     */
    private void claim(Member m) {
        versions.recordWritten(table.table(), m.out(), m.version(), spec.name(), m.run(), 0, m.fingerprint(), m.base());
    }

    /**
     * Records one staged version (its step's transaction): quarantined rows, the version ({@code claimed}: its rows, the
     * version being recorded by {@link #claim}), its publication when the table has no gate.
     */
    private TransformResult record(Member m, Figures f, boolean claimed) {
        long quarantined = new LakehouseQuarantine(dsl, spec, table).judge(m.out(), m.run(), f.quarantined(), input.sources(m.partition()));
        if (claimed) {
            versions.recordRows(table.table(), m.out(), m.version(), f.written());
        } else {
            versions.recordWritten(table.table(), m.out(), m.version(), spec.name(), m.run(), f.written(), m.fingerprint(), m.base());
        }
        if (!table.hasGate()) {
            new LakehousePublisher(catalog, dsl, spec).publish(table, m.out(), m.version(), m.run());
        }
        return new TransformResult(f.input(), f.written(), quarantined, f.collapsed(), m.version(), false);
    }

    /** The declared columns cast to their types, the table partition and the run id. */
    private String[] select(Member m) {
        List<String> select = new ArrayList<>();
        for (ColumnSpec c : table.columns()) {
            select.add("CAST(`" + c.name() + "` AS " + IcebergTypes.spark(c) + ") AS `" + c.name() + "`");
        }
        select.add(LakehouseInput.quote(m.out().key()) + " AS " + LakehouseNames.PARTITION);
        select.add("'" + m.run() + "' AS _run_id");
        return select.toArray(String[]::new);
    }

    /** {@code counts} (a key column and a count) as a map. */
    private static Map<String, Long> countBy(Dataset<Row> counts) {
        Map<String, Long> out = new HashMap<>();
        for (Row r : counts.collectAsList()) {
            out.put(r.getString(0), r.getLong(1));
        }
        return out;
    }

    /**
     * One Spark job over the result: per table partition, {rows, rows with a NULL in a key column,
     * Σ(dup_count − 1) when the table has a {@code dup_count} column else 0}.
     */
    private Map<String, long[]> figures(Dataset<Row> result) {
        String nulls = table.key().isEmpty() ? "0"
                : "SUM(CASE WHEN " + table.key().stream().map(k -> "`" + k + "` IS NULL").collect(Collectors.joining(" OR ")) + " THEN 1 ELSE 0 END)";
        String collapsed = table.columns().stream().anyMatch(c -> c.name().equals("dup_count")) ? "SUM(dup_count - 1)" : "0";
        Map<String, long[]> out = new HashMap<>();
        for (Row r : result.groupBy(LakehouseNames.PARTITION).agg(functions.expr("COUNT(*)"), functions.expr("CAST(" + nulls + " AS BIGINT)"),
                functions.expr("CAST(" + collapsed + " AS BIGINT)")).collectAsList()) {
            out.put(r.getString(0), new long[] {r.getLong(1), r.isNullAt(2) ? 0 : r.getLong(2), r.isNullAt(3) ? 0 : r.getLong(3)});
        }
        return out;
    }

    /**
     * The declared key identifies one row: no NULL in a key column, no key value twice. The
     * problem of each table partition that breaks it (naming the table, key and offending values),
     * by partition key; one Spark job for the key's duplicates.
     */
    private Map<String, String> keyProblems(Dataset<Row> result, Map<String, long[]> figures) {
        Map<String, String> out = new HashMap<>();
        if (table.key().isEmpty()) {
            return out;
        }
        figures.forEach((partition, f) -> {
            if (f[1] > 0) {
                out.put(partition, table.table() + ": " + f[1] + " row(s) of partition " + partition
                        + " have a NULL in key " + table.key() + "; a key identifies one row");
            }
        });
        List<org.apache.spark.sql.Column> by = new ArrayList<>();
        by.add(functions.col(LakehouseNames.PARTITION));
        table.key().forEach(k -> by.add(functions.col("`" + k + "`")));
        String example = "'[' || concat_ws(', ', " + table.key().stream().map(k -> "CAST(`" + k + "` AS STRING)")
                .collect(Collectors.joining(", ")) + ") || '] ×' || CAST(`count` AS STRING)"; // as the warehouse engine names them
        for (Row r : result.groupBy(by.toArray(org.apache.spark.sql.Column[]::new)).count().where("count > 1")
                .groupBy(LakehouseNames.PARTITION).agg(functions.expr("slice(collect_list(" + example + "), 1, 3)")).collectAsList()) {
            String partition = r.getString(0);
            out.putIfAbsent(partition, table.table() + ": key " + table.key() + " is not unique in partition " + partition
                    + " (" + String.join(", ", r.<String>getList(1)) + "); a key identifies one row: check the input for duplicates");
        }
        return out;
    }

    /**
     * Stages the versions of {@code ok}: one Iceberg commit on the first member's branch (made
     * from main) writes every member's partition, then one change of refs points the others'
     * branches at it. Returns, for a {@code merge-on-key} table, each partition's rows on the
     * branch after the merge (else empty).
     */
    private Map<String, Long> write(Dataset<Row> result, List<Member> ok) {
        org.apache.iceberg.Table iceberg = IcebergTables.load(catalog, table);
        String first = ok.get(0).branch();
        PartitionBranches.stage(iceberg, first);
        String target = PartitionBranches.sparkTarget(table, first);
        String partitions = LakehouseNames.PARTITION + " IN (" + ok.stream().map(m -> LakehouseInput.quote(m.out().key()))
                .collect(Collectors.joining(", ")) + ")";
        Map<String, Long> written = Map.of();
        if (!table.mergeOnKey()) {
            try {
                result.where(partitions).writeTo(target).overwrite(functions.expr(partitions));
            } catch (org.apache.spark.sql.catalyst.analysis.NoSuchTableException e) {
                throw new SluiceException(table.table() + " does not exist in the lakehouse catalog", e);
            }
        } else {
            String source = view("merge", new ArrayList<>());
            result.where(partitions).createOrReplaceTempView(source);
            try {
                String on = table.key().stream().map(k -> "t.`" + k + "` <=> s.`" + k + "`").collect(Collectors.joining(" AND "));
                spark.sql("MERGE INTO " + target + " t USING " + source + " s ON t." + partitions + " AND t." + LakehouseNames.PARTITION
                        + " = s." + LakehouseNames.PARTITION + " AND " + on + " WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *");
            } finally {
                spark.catalog().dropTempView(source);
            }
            written = countBy(spark.table(target).where(partitions).groupBy(LakehouseNames.PARTITION).count());
        }
        PartitionBranches.branchAt(iceberg, first, ok.subList(1, ok.size()).stream().map(Member::branch).toList());
        dev.sluice.core.FaultPoints.reach("lakehouse-staged:" + table.stepName()); // the branches hold the versions; nothing records them yet
        return written;
    }

    /** A temporary view name of its own, added to {@code views} (dropped by the caller). */
    private static String view(String what, List<String> views) {
        String name = "sluice_" + what + "_" + UUID.randomUUID().toString().replace("-", "");
        views.add(name);
        return name;
    }

    static String partitionIs(Partition out) {
        return LakehouseNames.PARTITION + " = " + LakehouseInput.quote(out.key());
    }

    /**
     * The rules as two columns: the first matching rule's id ({@value #RULE}, NULL when none
     * matches: a rule whose condition is NULL does not match) and its reason.
     */
    private String ruleCase() {
        List<String[]> rules = rules();
        if (rules.isEmpty()) {
            return "CAST(NULL AS STRING) AS " + RULE + ", CAST(NULL AS STRING) AS " + REASON;
        }
        StringBuilder id = new StringBuilder("CASE");
        StringBuilder reason = new StringBuilder("CASE");
        for (String[] r : rules) {
            id.append(" WHEN (").append(r[1]).append(") THEN ").append(LakehouseInput.quote(r[0]));
            reason.append(" WHEN (").append(r[1]).append(") THEN ").append(r[2]);
        }
        return id.append(" END AS ").append(RULE).append(", ").append(reason).append(" END AS ").append(REASON).toString();
    }

    /** Each rule as {id, Spark SQL condition over alias b, Spark SQL reason expression}, in the order they are tried. */
    private List<String[]> rules() {
        List<String[]> rules = new ArrayList<>();
        if (input.spec().layer() == Layer.BRONZE) {
            rules.add(new String[] {"contract_violation", "b._parse_errors IS NOT NULL",
                    "concat('the row breaks its contract: ', substring(b._parse_errors, 1, " + PARSE_ERROR_CHARS + "))"});
            SourceSpec source = input.source();
            if (source != null) {
                source.partitionColumnName().ifPresent(pc -> rules.add(new String[] {"partition_value_missing", "b.`" + pc + "` IS NULL",
                        LakehouseInput.quote("partition column " + pc + " has no value, so the row belongs to no partition"
                                + " (it is quarantined by every partition of its file)")}));
                var render = DSL.using(SQLDialect.DEFAULT, new Settings().withRenderQuotedNames(RenderQuotedNames.NEVER));
                for (ContractRules.Rule r : ContractRules.of(source.contract())) {
                    rules.add(new String[] {r.id(), render.renderInlined(r.when()), LakehouseInput.quote(r.reason())});
                }
            }
        }
        for (QuarantineRule r : table.quarantine()) {
            rules.add(new String[] {r.id(), SparkDialect.toSpark(r.when()), LakehouseInput.quote(r.reason())});
        }
        return rules;
    }

    /**
     * The input rows a rule matched, with their raw values as JSON (the input's declared columns,
     * and Bronze's {@code _parse_errors}), by job partition.
     */
    private Map<String, List<LakehouseQuarantine.Row>> quarantined(Dataset<Row> judged) {
        boolean bronze = input.spec().layer() == Layer.BRONZE;
        List<String> names = new ArrayList<>(input.businessColumns());
        if (bronze) {
            names.add("_parse_errors");
        }
        String json = "to_json(named_struct(" + names.stream().map(n -> "'" + n + "', `" + n + "`").collect(Collectors.joining(", "))
                + "), map('ignoreNullFields', 'false', 'timestampNTZFormat', \"yyyy-MM-dd'T'HH:mm:ss[.SSSSSS]\"))";
        Dataset<Row> q = judged.where(RULE + " IS NOT NULL").selectExpr(
                bronze ? "_source" : "CAST(NULL AS STRING)", bronze ? "_source_pos" : "CAST(NULL AS BIGINT)", RULE, REASON, json, MEMBER);
        Map<String, List<LakehouseQuarantine.Row>> rows = new HashMap<>();
        for (Row r : q.collectAsList()) {
            rows.computeIfAbsent(r.getString(5), m -> new ArrayList<>()).add(new LakehouseQuarantine.Row(r.isNullAt(0) ? null : r.getString(0),
                    r.isNullAt(1) ? null : r.getLong(1), r.getString(2), r.getString(3), r.getString(4)));
        }
        return rows;
    }
}
