package dev.sluice.quality.internal.deequ;

import com.amazon.deequ.VerificationResult;
import com.amazon.deequ.VerificationRunBuilder;
import com.amazon.deequ.VerificationSuite;
import com.amazon.deequ.analyzers.Analyzer;
import com.amazon.deequ.checks.Check;
import com.amazon.deequ.constraints.ConstraintResult;
import com.amazon.deequ.metrics.Metric;
import dev.sluice.config.CheckSpec;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.Partition;
import dev.sluice.core.SluiceException;
import dev.sluice.quality.Boundary;
import dev.sluice.quality.CheckResult;
import dev.sluice.quality.GateResult;
import dev.sluice.quality.MetricHistory;
import dev.sluice.quality.PartitionBatch;
import dev.sluice.quality.PartitionHistory;
import dev.sluice.quality.PartitionSource;
import dev.sluice.quality.QualityGate;
import dev.sluice.spark.SparkJobDescription;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import scala.collection.JavaConverters;

/**
 * The {@link QualityGate} on Deequ: reads the partition over JDBC into Spark ({@link PartitionSource.JdbcQuery},
 * {@link PartitionBatch.JdbcQueries}; a table snapshot is refused), runs all Deequ-backed checks in one {@code VerificationSuite} (scan-shareable
 * analyzers share one pass), judges schema, freshness and anomaly checks, and collects up to
 * {@value CheckResult#SAMPLE} unexpected values per failing map check.
 *
 * <p>NULL semantics (as GE's Spark backend): not_be_null and be_null judge every row; every other
 * map check ignores NULLs (they are neither expected nor unexpected, and {@code mostly} is a
 * fraction of the non-null values). No data is not a pass: a map check over no non-null values
 * (GE: vacuously true), an aggregate or metric over no values (GE: false, Deequ: "empty state"), a
 * sample deviation of fewer than two values and an anomaly check without a metric are
 * {@link dev.sluice.quality.CheckStatus#NO_DATA}, which blocks where the check's {@code no_data}
 * policy says so ({@link CheckSpec#noDataBlocks()}). An empty partition has row count 0.
 * Thread-safe (Spark jobs may run concurrently on the one session).
 */
public final class DeequGate implements QualityGate {

    private final String master;

    /**
     * @param master the Spark master URL, e.g. {@code local[*]} (the first gate of the JVM decides)
     */
    public DeequGate(String master) {
        this.master = master;
    }

    @Override
    public java.util.concurrent.CompletableFuture<Void> startInBackground() {
        return SessionStart.inBackground(master);
    }

    @Override
    public GateResult evaluate(DatasetRef dataset, Partition partition, Boundary boundary, PartitionSource source,
            List<CheckSpec> checks, MetricHistory history) {
        try (SparkJobDescription d = SparkJobDescription.of(master, "sluice gate " + dataset + " " + partition.key())) {
            return judge(dataset, partition, boundary, source, checks, history);
        }
    }

    private GateResult judge(DatasetRef dataset, Partition partition, Boundary boundary, PartitionSource source,
            List<CheckSpec> checks, MetricHistory history) {
        long start = System.nanoTime();
        // not cached: re-reading a partition for the odd second pass (a uniqueness grouping, a sample
        // of unexpected values) measured cheaper than materialising a cache for every gate
        Dataset<Row> df = source instanceof PartitionSource.JdbcQuery query
                ? read(SparkSessions.get(master), query)
                : read((PartitionSource.TableSnapshot) source, master);
        List<CheckPlan> plans = new ArrayList<>();
        for (CheckSpec c : checks) {
            plans.add(CheckPlan.of(c, df.schema()));
        }
        Map<Analyzer<?, Metric<?>>, String> countAnalyzers = Counts.analyzers(checks);
        Map<Object, Object> metrics = new LinkedHashMap<>();
        Map<CheckSpec, ConstraintResult> deequ = runDeequ(df, plans, countAnalyzers.keySet(), metrics);
        Counts counts = Counts.of(countAnalyzers, metrics);
        List<CheckResult> results = new ArrayList<>();
        Map<String, Map<Object, Long>> valueCounts = valueCounts(df, checks);
        CheckJudge.PartitionData data = new CheckJudge.PartitionData(df, List.of(df.columns()), counts, source.rowIdColumn(),
                partition.nominalStart(), source.nominalEnd(),
                extremes(df, plans)::get, column -> valueCounts.getOrDefault(column, Map.of()), history,
                columns -> UnexpectedRows.compound(df, columns, source.rowIdColumn()));
        for (CheckPlan p : plans) {
            results.add(CheckJudge.judge(p, deequ.get(p.spec()), data));
        }
        return new GateResult(dataset, partition, boundary, results, (System.nanoTime() - start) / 1_000_000);
    }

    @Override
    public SortedMap<Partition, GateResult> evaluateAll(DatasetRef dataset, Boundary boundary, PartitionBatch batch,
            List<CheckSpec> checks, PartitionHistory history) {
        List<Partition> members = batch.members().stream().map(PartitionBatch.Member::partition).sorted().toList();
        String of = members.isEmpty() ? "" : " " + members.get(0).key() + (members.size() == 1 ? "" : ".." + members.get(members.size() - 1).key());
        try (SparkJobDescription d = SparkJobDescription.of(master, "sluice gate " + dataset + of)) {
            return GroupedEvaluation.run(master, dataset, boundary, batch, checks, history);
        }
    }

    /** Every extreme value the plans judge by ({@link CheckPlan#extreme()}), in one aggregate over the rows (one read, not one per check). */
    private static Map<String, Object> extremes(Dataset<Row> df, List<CheckPlan> plans) {
        List<String> keys = plans.stream().flatMap(p -> p.aggregateKeys().stream()).distinct().toList();
        Map<String, Object> values = new java.util.HashMap<>();
        if (keys.isEmpty()) {
            return values;
        }
        Column[] aggregates = keys.stream().map(OwnAggregates::aggregate).toArray(Column[]::new);
        Row row = df.agg(aggregates[0], java.util.Arrays.copyOfRange(aggregates, 1, aggregates.length)).first();
        for (int i = 0; i < keys.size(); i++) {
            if (!row.isNullAt(i)) {
                values.put(keys.get(i), OwnAggregates.value(row, i));
            }
        }
        return values;
    }

    /** The value counts of each column a distinct-value check judges ({@link ValueCounts}), empty for a column without values. */
    private static Map<String, Map<Object, Long>> valueCounts(Dataset<Row> df, List<CheckSpec> checks) {
        Map<String, Map<Object, Long>> out = new java.util.HashMap<>();
        for (CheckSpec c : checks) {
            if (c.expectation().judgesDistinctValues() && !out.containsKey(c.column())) {
                out.put(c.column(), ValueCounts.of(df, c.column()));
            }
        }
        return out;
    }

    /** The partition's rows of a lakehouse table at the source's snapshot, its columns as the source selects them. */
    private static Dataset<Row> read(PartitionSource.TableSnapshot source, String master) {
        SparkSession spark = SparkSessions.lakehouse(master, source.catalog());
        try {
            return spark.sql("SELECT " + String.join(", ", source.columns()) + " FROM " + source.table()
                    + (source.snapshotId() == null ? "" : " VERSION AS OF " + source.snapshotId()) + " WHERE " + source.partitionFilter());
        } catch (RuntimeException e) {
            throw new SluiceException("the quality gate cannot read " + source.table() + ": " + firstLine(e), e);
        }
    }

    private static Dataset<Row> read(SparkSession spark, PartitionSource.JdbcQuery source) {
        try {
            return spark.read().format("jdbc")
                    .option("url", source.jdbcUrl())
                    .option("driver", source.jdbcUrl().startsWith("jdbc:postgresql:") ? "org.postgresql.Driver" : "org.h2.Driver")
                    .option("user", source.user())
                    .option("password", source.password())
                    .option("query", source.query())
                    .option("preferTimestampNTZ", "true")
                    .option("fetchsize", "10000")
                    .load();
        } catch (RuntimeException e) {
            throw new SluiceException("the quality gate cannot read " + source.query() + ": " + firstLine(e), e);
        }
    }

    /**
     * Runs every Deequ check and the counting analyzers in one suite (scan-shareable analyzers share
     * one pass over the data); {@code metrics} receives the analyzers' metrics.
     */
    private static Map<CheckSpec, ConstraintResult> runDeequ(Dataset<Row> df, List<CheckPlan> plans,
            Set<Analyzer<?, Metric<?>>> analyzers, Map<Object, Object> metrics) {
        VerificationRunBuilder run = new VerificationSuite().onData(df).addRequiredAnalyzers(Scala.seq(new ArrayList<>(analyzers)));
        Map<Check, CheckSpec> bySpec = new LinkedHashMap<>();
        for (CheckPlan p : plans) {
            if (p.deequ() != null) {
                run = run.addCheck(p.deequ());
                bySpec.put(p.deequ(), p.spec());
            }
        }
        Map<CheckSpec, ConstraintResult> out = new LinkedHashMap<>();
        VerificationResult result = run.run();
        JavaConverters.mapAsJavaMapConverter(result.metrics()).asJava().forEach((a, m) ->
                metrics.put(a, m.value().isSuccess() ? m.value().get() : null));
        bySpec.forEach((check, spec) -> {
            var r = result.checkResults().get(check).get();
            out.put(spec, r.constraintResults().head());
        });
        return out;
    }

    private static String firstLine(Throwable e) {
        String m = String.valueOf(e.getMessage());
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }

}
