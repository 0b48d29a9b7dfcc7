package dev.sluice.batch.engine.lakehouse;

import dev.sluice.batch.bronze.LandedFileRepository;
import dev.sluice.batch.engine.TransformResult;
import dev.sluice.batch.engine.control.PartitionVersions;
import dev.sluice.batch.engine.control.SnapshotFingerprint;
import dev.sluice.batch.engine.control.ContractRules;
import dev.sluice.config.ColumnSpec;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.QuarantineRule;
import dev.sluice.config.SourceSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.Layer;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import dev.sluice.core.SluiceException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.storage.StorageLevel;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.conf.RenderQuotedNames;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;

/**
 * Writes one partition of a lakehouse Silver or Gold table with Spark SQL in the JVM's one
 * SparkSession (the lakehouse catalog's session):
 * <ol>
 *   <li>the partition's input rows ({@link LakehouseInput}) are judged by the quarantine rules in
 *       one CASE (first match wins; the built-in rules of a Silver table over Bronze first, as on the
 *       warehouse engine); the matching rows go to {@code sluice.quarantine} ({@link LakehouseQuarantine});</li>
 *   <li>the spec's SELECT runs over the kept rows ({@code {input}}), {@code {partition}} bound to
 *       the partition key, its columns cast to the declared types; the declared key is checked
 *       before anything is written;</li>
 *   <li>the version is staged on its own branch ({@link PartitionBranches}), made from main,
 *       where readers do not see it: {@code overwrite-partition} replaces the partition's rows there
 *       in one Iceberg overwrite commit (overwrite by filter on {@code _sluice_partition}, so an
 *       empty result empties the partition, which a dynamic overwrite would not);
 *       {@code merge-on-key} is one {@code MERGE INTO} the branch;</li>
 *   <li>the version is recorded in {@code sluice.partition_version}; a table without checks
 *       publishes it at once ({@link LakehousePublisher}), a table with checks when its gate,
 *       judging the branch, passes.</li>
 * </ol>
 * A reference snapshot whose input has not changed is not rewritten. Thread-safe: every temporary
 * view has a name of its own.
 */
final class LakehouseTransform {

    private static final String RULE = "__sluice_rule";
    private static final String REASON = "__sluice_reason";
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
     * Writes {@code partition} (the job's) as run {@code run}.
     *
     * @throws SluiceException when the result breaks the table's key; nothing is written then
     */
    TransformResult apply(Partition partition, RunId run) {
        Partition out = table.outputPartition(partition);
        Partition[] range = input.partitions(partition);
        TableSpec in = input.spec();
        String fingerprint = table.isRollup()
                ? SnapshotFingerprint.ofRange(dsl, table, in, range)
                : SnapshotFingerprint.of(dsl, table, in, in.partitioned() ? partition : Partition.NONE);
        PartitionVersions.Written last = versions.newest(table.table(), out);
        Dataset<Row> rows = input.rows(partition);
        if (!table.partitioned() && last != null && fingerprint.equals(last.inputFingerprint())) {
            return new TransformResult(rows.count(), 0, 0, 0, last.version(), true);
        }
        String inputView = view("input");
        String keptView = view("kept");
        rows.createOrReplaceTempView(inputView);
        Dataset<Row> judged = spark.sql("SELECT b.*, " + ruleCase() + " FROM " + inputView + " b").persist(StorageLevel.MEMORY_AND_DISK());
        Dataset<Row> result = null;
        try {
            long inputCount = judged.count();
            List<LakehouseQuarantine.Row> quarantinedRows = quarantined(judged);
            Dataset<Row> kept = judged.where(RULE + " IS NULL").drop(RULE, REASON);
            SourceSpec source = input.source();
            if (source != null && LakehousePii.transforms(source)) {
                kept = LakehousePii.apply(kept, source, spec.piiKeys()); // rules judged the raw values; the SELECT never sees them
            }
            kept.createOrReplaceTempView(keptView);
            String key = LakehouseInput.quote((out == Partition.NONE ? partition : out).key());
            String sql = SparkDialect.toSpark(table.sql().replace("{input}", keptView).replace("{partition}", key));
            List<String> select = new ArrayList<>();
            for (ColumnSpec c : table.columns()) {
                select.add("CAST(`" + c.name() + "` AS " + IcebergTypes.spark(c) + ") AS `" + c.name() + "`");
            }
            select.add(LakehouseInput.quote(out.key()) + " AS " + LakehouseNames.PARTITION);
            select.add("'" + run + "' AS _run_id");
            result = spark.sql(sql).selectExpr(select.toArray(String[]::new)).persist(StorageLevel.MEMORY_AND_DISK());
            long written = result.count();
            checkKey(result, out);
            long collapsed = collapsed(result);
            int version = last == null ? 1 : last.version() + 1;
            String branch = PartitionBranches.name(out, version);
            PartitionBranches.stage(IcebergTables.load(catalog, table), branch);
            write(result, out, branch);
            if (table.mergeOnKey()) {
                written = spark.table(PartitionBranches.sparkTarget(table, branch)).where(partitionIs(out)).count();
            }
            dev.sluice.core.FaultPoints.reach("lakehouse-staged:" + table.stepName()); // the branch holds the version; nothing records it yet
            long quarantined = new LakehouseQuarantine(dsl, spec, table).judge(out, run, quarantinedRows, input.sources(partition));
            versions.recordWritten(table.table(), out, version, spec.name(), run, written, fingerprint);
            if (!table.hasGate()) {
                new LakehousePublisher(catalog, dsl, spec).publish(table, out, version, run);
            }
            return new TransformResult(inputCount, written, quarantined, collapsed, version, false);
        } finally {
            judged.unpersist();
            if (result != null) {
                result.unpersist();
            }
            spark.catalog().dropTempView(inputView);
            spark.catalog().dropTempView(keptView);
        }
    }

    private static String view(String what) {
        return "sluice_" + what + "_" + UUID.randomUUID().toString().replace("-", "");
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

    /** The input rows a rule matched, with their raw values as JSON (the input's declared columns, and Bronze's {@code _parse_errors}). */
    private List<LakehouseQuarantine.Row> quarantined(Dataset<Row> judged) {
        boolean bronze = input.spec().layer() == Layer.BRONZE;
        List<String> names = new ArrayList<>(input.businessColumns());
        if (bronze) {
            names.add("_parse_errors");
        }
        String json = "to_json(named_struct(" + names.stream().map(n -> "'" + n + "', `" + n + "`").collect(Collectors.joining(", "))
                + "), map('ignoreNullFields', 'false', 'timestampNTZFormat', \"yyyy-MM-dd'T'HH:mm:ss[.SSSSSS]\"))";
        Dataset<Row> q = judged.where(RULE + " IS NOT NULL").selectExpr(
                bronze ? "_source" : "CAST(NULL AS STRING)", bronze ? "_source_pos" : "CAST(NULL AS BIGINT)", RULE, REASON, json);
        List<LakehouseQuarantine.Row> rows = new ArrayList<>();
        for (Row r : q.collectAsList()) {
            rows.add(new LakehouseQuarantine.Row(r.isNullAt(0) ? null : r.getString(0), r.isNullAt(1) ? null : r.getLong(1),
                    r.getString(2), r.getString(3), r.getString(4)));
        }
        return rows;
    }

    /**
     * The declared key identifies one row: no NULL in a key column, no key value twice.
     *
     * @throws SluiceException naming the table, key and offending values
     */
    private void checkKey(Dataset<Row> result, Partition out) {
        if (table.key().isEmpty()) {
            return;
        }
        String anyNull = table.key().stream().map(k -> "`" + k + "` IS NULL").collect(Collectors.joining(" OR "));
        long nulls = result.where(anyNull).count();
        if (nulls > 0) {
            throw new SluiceException(table.table() + ": " + nulls + " row(s) of partition " + out
                    + " have a NULL in key " + table.key() + "; a key identifies one row");
        }
        List<Row> dupes = result.groupBy(table.key().stream().map(k -> functions.col("`" + k + "`")).toArray(org.apache.spark.sql.Column[]::new))
                .count().where("count > 1").limit(3).collectAsList();
        if (!dupes.isEmpty()) {
            String examples = dupes.stream().map(r -> {
                List<Object> key = new ArrayList<>();
                for (int i = 0; i < table.key().size(); i++) {
                    key.add(r.get(i));
                }
                return key + " ×" + r.getLong(table.key().size());
            }).collect(Collectors.joining(", "));
            throw new SluiceException(table.table() + ": key " + table.key() + " is not unique in partition "
                    + out + " (" + examples + "); a key identifies one row: check the input for duplicates");
        }
    }

    /** Σ(dup_count − 1) when the table has a {@code dup_count} column, else 0. */
    private long collapsed(Dataset<Row> result) {
        if (table.columns().stream().noneMatch(c -> c.name().equals("dup_count"))) {
            return 0;
        }
        Row r = result.selectExpr("CAST(SUM(dup_count - 1) AS BIGINT)").first();
        return r.isNullAt(0) ? 0 : r.getLong(0);
    }

    /** One Iceberg commit on {@code branch}: the partition's rows replaced (overwrite by filter), or merged by key. */
    private void write(Dataset<Row> result, Partition out, String branch) {
        String target = PartitionBranches.sparkTarget(table, branch);
        if (!table.mergeOnKey()) {
            try {
                result.writeTo(target).overwrite(functions.expr(partitionIs(out)));
            } catch (org.apache.spark.sql.catalyst.analysis.NoSuchTableException e) {
                throw new SluiceException(table.table() + " does not exist in the lakehouse catalog", e);
            }
            return;
        }
        String source = view("merge");
        result.createOrReplaceTempView(source);
        try {
            String on = table.key().stream().map(k -> "t.`" + k + "` <=> s.`" + k + "`").collect(Collectors.joining(" AND "));
            spark.sql("MERGE INTO " + target + " t USING " + source + " s ON t." + partitionIs(out) + " AND " + on
                    + " WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *");
        } finally {
            spark.catalog().dropTempView(source);
        }
    }
}
