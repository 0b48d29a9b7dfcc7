package dev.sluice.quality.internal.deequ;

import com.amazon.deequ.analyzers.Analyzer;
import com.amazon.deequ.analyzers.CountDistinct;
import com.amazon.deequ.analyzers.Distinctness;
import com.amazon.deequ.analyzers.Entropy;
import com.amazon.deequ.analyzers.FilterableAnalyzer;
import com.amazon.deequ.analyzers.ScanShareableAnalyzer;
import com.amazon.deequ.analyzers.ScanShareableFrequencyBasedAnalyzer;
import com.amazon.deequ.analyzers.UniqueValueRatio;
import com.amazon.deequ.analyzers.Uniqueness;
import com.amazon.deequ.analyzers.runners.AnalyzerContext;
import com.amazon.deequ.constraints.ConstraintResult;
import com.amazon.deequ.metrics.Metric;
import dev.sluice.config.CheckSpec;
import dev.sluice.config.Expectation;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.Partition;
import dev.sluice.core.SluiceException;
import dev.sluice.quality.Boundary;
import dev.sluice.quality.CheckResult;
import dev.sluice.quality.CheckStatus;
import dev.sluice.quality.GateResult;
import dev.sluice.quality.PartitionBatch;
import dev.sluice.quality.PartitionHistory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.storage.StorageLevel;
import org.jspecify.annotations.Nullable;
import scala.Function1;
import scala.collection.JavaConverters;
import scala.runtime.BoxedUnit;

/**
 * Judges many partitions of one dataset in one pass: the rows of all of them are read together (one
 * JDBC query per partition, run as the Spark partitions of one read, so the database uses its
 * {@code _partition} index), then
 * <ul>
 *   <li>every scan-shareable Deequ analyzer the checks need (size, completeness, compliance, mean,
 *       min, max, standard deviation) is computed per partition in one {@code GROUP BY} with the
 *       analyzer's own aggregation functions, and read back with its own
 *       {@code fromAggregationResult};</li>
 *   <li>each uniqueness analyzer is one grouped count: Deequ's frequency rule (rows where at least
 *       one grouping column is non-null, values occurring once over those rows) per partition;</li>
 *   <li>each Deequ check is evaluated on the partition's {@link AnalyzerContext}, and
 *       {@link CheckJudge} turns it into the result, as in the single-partition path.</li>
 * </ul>
 * Rows read by JDBC are cached for these passes; a table snapshot's files are read again by each
 * (cheaper than building the cache). Unexpected-value samples are taken from a partition's rows
 * only when a map check found some. Stateless.
 */
final class GroupedEvaluation {

    private static final String PARTITION = "__gate_partition";

    private GroupedEvaluation() {
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static SortedMap<Partition, GateResult> run(String master, DatasetRef dataset, Boundary boundary, PartitionBatch batch,
            List<CheckSpec> checks, PartitionHistory history) {
        long start = System.nanoTime();
        SortedMap<Partition, GateResult> out = new TreeMap<>();
        if (batch.members().isEmpty()) {
            return out;
        }
        Dataset<Row> all = batch instanceof PartitionBatch.JdbcQueries queries
                ? read(SparkSessions.get(master), queries)
                : read((PartitionBatch.TableSnapshot) batch, master);
        List<String> allColumns = new ArrayList<>(List.of(all.columns()));
        allColumns.remove(PARTITION);
        List<CheckPlan> plans = new ArrayList<>();
        for (CheckSpec c : checks) {
            plans.add(CheckPlan.of(c, all.schema()));
        }
        // only the columns the checks name are read (schema checks need the names alone); cached when they come by JDBC,
        // whose queries each pass would run again. A table snapshot's Parquet files are re-read instead: for the lakehouse
        // gates building the cache took 31 % of the executors' samples and reading the files 4 % (JFR, 64 days, 2026-12-04)
        Dataset<Row> selected = all.select(needed(all, checks, batch).stream().map(c -> functions.col(SparkSql.identifier(c)))
                .toArray(Column[]::new));
        // the cache in a few Spark partitions, not one per member: every pass over it runs a task per Spark partition, and
        // a wave's 64 tasks per pass cost more than the pass's work on a small machine
        Dataset<Row> df = batch instanceof PartitionBatch.JdbcQueries
                ? selected.coalesce(cachedPartitions(selected, batch)).persist(StorageLevel.MEMORY_AND_DISK()) : selected;
        try {
            Map<Analyzer<?, Metric<?>>, String> countAnalyzers = Counts.analyzers(checks);
            Set<Analyzer<?, Metric<?>>> analyzers = new LinkedHashSet<>(countAnalyzers.keySet());
            for (CheckPlan p : plans) {
                if (p.deequ() != null) {
                    analyzers.addAll((Set) JavaConverters.setAsJavaSetConverter(p.deequ().requiredAnalyzers()).asJava());
                }
            }
            List<String> extremes = plans.stream().flatMap(p -> p.aggregateKeys().stream()).distinct().toList();
            Map<String, Map<Analyzer<?, Metric<?>>, Metric<?>>> metrics = new HashMap<>();
            Map<String, Map<String, Object>> newest = new HashMap<>();
            scanShareable(df, analyzers, extremes, batch, metrics, newest);
            for (Analyzer<?, Metric<?>> a : analyzers) {
                if ((Object) a instanceof ScanShareableFrequencyBasedAnalyzer f) {
                    frequencies(df, f, batch, metrics);
                }
            }
            Map<String, Map<String, Map<Object, Long>>> valueCounts = new HashMap<>();
            for (CheckSpec c : checks) {
                if (c.expectation().judgesDistinctValues() && !valueCounts.containsKey(c.column())) {
                    valueCounts.put(c.column(), ValueCounts.byPartition(df, c.column(), PARTITION));
                }
            }
            Map<String, Map<String, Double>> accepted = new HashMap<>();
            // a compound uniqueness check's unexpected rows, for every member at once, at the first member that has some
            Map<List<String>, Map<String, UnexpectedRows.Duplicates>> duplicates = new HashMap<>();
            List<PartitionBatch.Member> members = new ArrayList<>(batch.members());
            members.sort((x, y) -> x.partition().compareTo(y.partition()));
            Set<Partition> inBatch = new HashSet<>();
            members.forEach(m -> inBatch.add(m.partition()));
            List<GateResult> results = new ArrayList<>();
            for (PartitionBatch.Member m : members) {
                String key = m.partition().key();
                Map<Analyzer<?, Metric<?>>, Metric<?>> own = metrics.get(key);
                AnalyzerContext context = AnalyzerContext.apply(scalaMap(own));
                Map<Object, Object> values = new LinkedHashMap<>();
                own.forEach((a, metric) -> values.put(a, metric.value().isSuccess() ? metric.value().get() : null));
                Counts counts = Counts.of(countAnalyzers, values);
                Dataset<Row> rows = df.filter(functions.col(PARTITION).equalTo(key)).drop(PARTITION);
                Map<String, Object> newestHere = newest.getOrDefault(key, Map.of());
                CheckJudge.PartitionData data = new CheckJudge.PartitionData(rows, allColumns, counts, batch.rowIdColumn(),
                        m.partition().nominalStart(), m.nominalEnd(),
                        newestHere::get, column -> valueCounts.getOrDefault(column, Map.of()).getOrDefault(key, Map.of()),
                        checkId -> merged(history, accepted, inBatch, checkId, m.partition()),
                        columns -> duplicates.computeIfAbsent(columns, c -> UnexpectedRows.compoundByPartition(df, PARTITION, c, batch.rowIdColumn()))
                                .getOrDefault(key, UnexpectedRows.Duplicates.NONE));
                List<CheckResult> own2 = new ArrayList<>();
                for (CheckPlan p : plans) {
                    ConstraintResult r = p.deequ() == null ? null : p.deequ().evaluate(context).constraintResults().head();
                    CheckResult result = CheckJudge.judge(p, r, data);
                    own2.add(result);
                    if (result.metric() != null && (result.status() == CheckStatus.PASSED
                            || result.status() == CheckStatus.INSUFFICIENT_HISTORY)) {
                        accepted.computeIfAbsent(p.spec().id(), k -> new HashMap<>()).put(key, result.metric());
                    }
                }
                results.add(new GateResult(dataset, m.partition(), boundary, own2, 0));
            }
            long share = (System.nanoTime() - start) / 1_000_000 / members.size();
            for (GateResult r : results) {
                out.put(r.partition(), new GateResult(r.dataset(), r.partition(), r.boundary(), r.checks(), share));
            }
            return out;
        } finally {
            df.unpersist();
        }
    }

    /** Spark partitions of a wave's cached rows: twice the session's default parallelism, at most one per member. */
    private static int cachedPartitions(Dataset<Row> df, PartitionBatch batch) {
        return Math.max(1, Math.min(batch.members().size(), 2 * df.sparkSession().sparkContext().defaultParallelism()));
    }

    /** The columns of {@code df} that {@code checks} name, the row id and the partition key, in {@code df}'s order. */
    private static List<String> needed(Dataset<Row> df, List<CheckSpec> checks, PartitionBatch batch) {
        Set<String> names = new HashSet<>();
        names.add(PARTITION.toLowerCase(Locale.ROOT));
        if (batch.rowIdColumn() != null) {
            names.add(batch.rowIdColumn().toLowerCase(Locale.ROOT));
        }
        for (CheckSpec c : checks) {
            if (c.expectation().kind() == Expectation.Kind.SCHEMA) {
                continue;
            }
            if (c.column() != null) {
                names.add(c.column().toLowerCase(Locale.ROOT));
            }
            c.list("column_list").forEach(o -> names.add(o.toString().toLowerCase(Locale.ROOT)));
            c.param("other_column").ifPresent(o -> names.add(o.toString().toLowerCase(Locale.ROOT)));
            Expectation.rowColumns(c).forEach(o -> names.add(o.toLowerCase(Locale.ROOT)));
        }
        List<String> out = new ArrayList<>();
        for (String f : df.columns()) {
            if (names.contains(f.toLowerCase(Locale.ROOT))) {
                out.add(f);
            }
        }
        return out;
    }

    /** The stored accepted history before {@code p}, with the batch's own members replaced by what the batch accepted. */
    private static List<Double> merged(PartitionHistory history, Map<String, Map<String, Double>> accepted, Set<Partition> inBatch,
            String checkId, Partition p) {
        TreeMap<Partition, Double> all = new TreeMap<>(history.accepted(checkId, p));
        all.keySet().removeIf(inBatch::contains);
        accepted.getOrDefault(checkId, Map.of()).forEach((k, v) -> {
            Partition q = new Partition(k);
            if (q.compareTo(p) < 0) {
                all.put(q, v);
            }
        });
        return new ArrayList<>(all.values());
    }

    /** One grouped aggregation: every scan-shareable analyzer and each extreme value the plans need ({@link Extremes}), per partition. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void scanShareable(Dataset<Row> df, Set<Analyzer<?, Metric<?>>> analyzers, List<String> extremes,
            PartitionBatch batch, Map<String, Map<Analyzer<?, Metric<?>>, Metric<?>>> metrics, Map<String, Map<String, Object>> newest) {
        List<ScanShareableAnalyzer> shareable = new ArrayList<>();
        List<Column> aggregations = new ArrayList<>();
        List<Integer> offsets = new ArrayList<>();
        for (Analyzer<?, Metric<?>> a : analyzers) {
            if ((Object) a instanceof ScanShareableFrequencyBasedAnalyzer) {
                continue;
            }
            if (!(a instanceof ScanShareableAnalyzer s)) {
                throw new IllegalStateException("no grouped evaluation for the Deequ analyzer " + a);
            }
            Exception failed = precondition(a, df);
            if (failed != null) {
                for (PartitionBatch.Member m : batch.members()) {
                    metrics.computeIfAbsent(m.partition().key(), k -> new LinkedHashMap<>()).put(a, a.toFailureMetric(failed));
                }
                continue;
            }
            shareable.add(s);
            offsets.add(aggregations.size());
            aggregations.addAll((List<Column>) JavaConverters.seqAsJavaListConverter(s.aggregationFunctions()).asJava());
        }
        int extremesOffset = aggregations.size();
        for (String key : extremes) {
            aggregations.add(OwnAggregates.aggregate(key));
        }
        if (aggregations.isEmpty()) {
            aggregations.add(functions.count(functions.lit(1)));
        }
        Map<String, Row> byPartition = new HashMap<>();
        Column first = aggregations.get(0);
        Column[] rest = aggregations.subList(1, aggregations.size()).toArray(new Column[0]);
        for (Row r : df.groupBy(functions.col(PARTITION)).agg(first, rest).collectAsList()) {
            byPartition.put(r.getString(0), r);
        }
        Row empty = null;
        for (PartitionBatch.Member m : batch.members()) {
            String key = m.partition().key();
            Row row = byPartition.get(key);
            if (row == null) {
                // no rows: what the aggregations give over nothing (a count of 0, NULL elsewhere)
                if (empty == null) {
                    Row e = df.limit(0).agg(first, rest).first();
                    List<Object> cells = new ArrayList<>();
                    cells.add(key);
                    for (int i = 0; i < e.length(); i++) {
                        cells.add(e.get(i));
                    }
                    empty = RowFactory.create(cells.toArray());
                }
                row = empty;
            }
            Map<Analyzer<?, Metric<?>>, Metric<?>> own = metrics.computeIfAbsent(key, k -> new LinkedHashMap<>());
            for (int i = 0; i < shareable.size(); i++) {
                ScanShareableAnalyzer s = shareable.get(i);
                Metric<?> metric;
                try {
                    metric = (Metric<?>) s.computeMetricFrom(s.fromAggregationResult(row, 1 + offsets.get(i)));
                } catch (RuntimeException e) {
                    metric = (Metric<?>) s.toFailureMetric(e);
                }
                own.put((Analyzer<?, Metric<?>>) s, metric);
            }
            Map<String, Object> fresh = new HashMap<>();
            for (int i = 0; i < extremes.size(); i++) {
                Object v = OwnAggregates.value(row, 1 + extremesOffset + i);
                if (v != null) {
                    fresh.put(extremes.get(i), v);
                }
            }
            newest.put(key, fresh);
        }
    }

    /**
     * Deequ's frequency-based metrics per partition from one grouped count over the analyzer's
     * columns: the rows where at least one of them is non-null grouped by their values
     * ({@code FrequencyBasedAnalyzer.computeFrequencies}), then per partition n (rows), the groups,
     * the groups of one row and the entropy's summands, whence {@code Uniqueness} (ones / n),
     * {@code Distinctness} (groups / n), {@code UniqueValueRatio} (ones / groups),
     * {@code CountDistinct} (groups) and {@code Entropy} (Σ −(c/n)·ln(c/n), per group as Deequ sums it).
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void frequencies(Dataset<Row> df, ScanShareableFrequencyBasedAnalyzer analyzer, PartitionBatch batch,
            Map<String, Map<Analyzer<?, Metric<?>>, Metric<?>>> metrics) {
        boolean known = analyzer instanceof Uniqueness || analyzer instanceof Distinctness || analyzer instanceof UniqueValueRatio
                || analyzer instanceof CountDistinct || analyzer instanceof Entropy;
        if (!known || analyzer instanceof FilterableAnalyzer f && f.filterCondition().isDefined()) {
            throw new IllegalStateException("no grouped evaluation for the Deequ analyzer " + analyzer);
        }
        Exception failed = precondition(analyzer, df);
        List<String> columns = JavaConverters.seqAsJavaListConverter(analyzer.groupingColumns()).asJava();
        Map<String, Row> byPartition = new HashMap<>();
        if (failed == null) {
            List<Column> group = new ArrayList<>();
            group.add(functions.col(PARTITION));
            Column anyNonNull = functions.lit(false);
            for (String c : columns) {
                group.add(functions.col(SparkSql.identifier(c)));
                anyNonNull = anyNonNull.or(functions.col(SparkSql.identifier(c)).isNotNull());
            }
            Column c = functions.col("_sluice_count");
            Column n = functions.sum(c).over(org.apache.spark.sql.expressions.Window.partitionBy(functions.col(PARTITION)));
            Dataset<Row> counts = df.where(anyNonNull).groupBy(group.toArray(new Column[0])).agg(functions.count(functions.lit(1)).as("_sluice_count"))
                    .withColumn("_sluice_n", n);
            Column summand = ENTROPY_SUMMAND.apply(c.cast("double"), functions.col("_sluice_n").cast("double"));
            for (Row r : counts.groupBy(functions.col(PARTITION)).agg(functions.first(functions.col("_sluice_n")), functions.count(functions.lit(1)),
                    functions.sum(functions.when(c.equalTo(1), 1L).otherwise(0L)), functions.sum(summand)).collectAsList()) {
                byPartition.put(r.getString(0), r);
            }
        }
        for (PartitionBatch.Member m : batch.members()) {
            String key = m.partition().key();
            Row r = byPartition.get(key);
            Metric<?> metric = failed != null ? (Metric<?>) analyzer.toFailureMetric(failed)
                    // no row with a value: Deequ's count over no groups is 0, its ratios are empty (no metric)
                    : r == null && analyzer instanceof CountDistinct ? (Metric<?>) analyzer.toSuccessMetric(0.0, scala.Option.empty())
                    : r == null ? (Metric<?>) analyzer.computeMetricFrom(scala.Option.empty())
                    : (Metric<?>) analyzer.toSuccessMetric(value(analyzer, r.getLong(1), r.getLong(2), r.getLong(3), r.getDouble(4)),
                            scala.Option.empty());
            metrics.computeIfAbsent(key, k -> new LinkedHashMap<>()).put((Analyzer<?, Metric<?>>) (Analyzer) analyzer, metric);
        }
    }

    /** Deequ's {@code Entropy} summand of a group of {@code count} rows among {@code rows}. */
    private static final org.apache.spark.sql.expressions.UserDefinedFunction ENTROPY_SUMMAND = functions.udf(
            (org.apache.spark.sql.api.java.UDF2<Double, Double, Double>) (count, rows) -> count == 0.0 ? 0.0 : -(count / rows) * Math.log(count / rows),
            org.apache.spark.sql.types.DataTypes.DoubleType);

    private static double value(ScanShareableFrequencyBasedAnalyzer analyzer, long rows, long groups, long ones, double entropy) {
        if (analyzer instanceof Uniqueness) {
            return (double) ones / rows;
        }
        if (analyzer instanceof Distinctness) {
            return (double) groups / rows;
        }
        if (analyzer instanceof UniqueValueRatio) {
            return (double) ones / groups;
        }
        if (analyzer instanceof CountDistinct) {
            return groups;
        }
        return entropy;
    }

    /** The first failing Deequ precondition of {@code a} on the data's schema, or null. */
    private static @Nullable Exception precondition(Analyzer<?, ?> a, Dataset<Row> df) {
        for (Function1<StructType, BoxedUnit> p
                : JavaConverters.seqAsJavaListConverter(a.preconditions()).asJava()) {
            try {
                p.apply(df.schema());
            } catch (Exception e) {
                return e;
            }
        }
        return null;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static scala.collection.immutable.Map<Analyzer<?, Metric<?>>, Metric<?>> scalaMap(Map<Analyzer<?, Metric<?>>, Metric<?>> map) {
        scala.collection.immutable.Map out = scala.collection.immutable.Map$.MODULE$.empty();
        for (Map.Entry<Analyzer<?, Metric<?>>, Metric<?>> e : map.entrySet()) {
            out = out.$plus(new scala.Tuple2<>(e.getKey(), e.getValue()));
        }
        return out;
    }

    /**
     * All members' rows in one read: one JDBC query per member (its own condition, so each uses the
     * partition index), the judged columns in the batch's order, the partition key copied to a
     * column of its own.
     */
    private static Dataset<Row> read(SparkSession spark, PartitionBatch.JdbcQueries batch) {
        String[] predicates = batch.members().stream().map(PartitionBatch.Member::condition).toArray(String[]::new);
        Properties props = new Properties();
        props.setProperty("user", batch.user());
        props.setProperty("password", batch.password());
        props.setProperty("driver", batch.jdbcUrl().startsWith("jdbc:postgresql:") ? "org.postgresql.Driver" : "org.h2.Driver");
        props.setProperty("fetchsize", "10000");
        props.setProperty("preferTimestampNTZ", "true");
        try {
            Dataset<Row> table = spark.read().jdbc(batch.jdbcUrl(), batch.from(), predicates, props);
            Column[] columns = batch.columns().stream().map(c -> functions.col(SparkSql.identifier(fieldName(table, c)))).toArray(Column[]::new);
            Dataset<Row> df = table.select(columns);
            return df.withColumn(PARTITION, functions.col(SparkSql.identifier(fieldName(df, batch.partitionColumn()))).cast("string"));
        } catch (RuntimeException e) {
            throw new SluiceException("the quality gate cannot read " + batch.from() + ": "
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse(""), e);
        }
    }

    /**
     * All members' rows of a lakehouse table in one read: one SELECT per snapshot read (the batch's,
     * or members' own), joined by UNION ALL; the judged columns (Spark select expressions), the
     * partition key copied to a column of its own.
     */
    private static Dataset<Row> read(PartitionBatch.TableSnapshot batch, String master) {
        SparkSession spark = SparkSessions.lakehouse(master, batch.catalog());
        Map<Optional<Long>, List<PartitionBatch.Member>> bySnapshot = new LinkedHashMap<>();
        for (PartitionBatch.Member m : batch.members()) {
            Long at = m.snapshotId() != null ? m.snapshotId() : batch.snapshotId();
            bySnapshot.computeIfAbsent(Optional.ofNullable(at), k -> new ArrayList<>()).add(m);
        }
        List<String> selects = new ArrayList<>();
        bySnapshot.forEach((at, members) -> selects.add("SELECT " + String.join(", ", batch.columns()) + " FROM " + batch.table()
                + at.map(id -> " VERSION AS OF " + id).orElse("") + " WHERE "
                + members.stream().map(m -> "(" + m.condition() + ")").collect(java.util.stream.Collectors.joining(" OR "))));
        try {
            Dataset<Row> df = spark.sql(String.join(" UNION ALL ", selects));
            return df.withColumn(PARTITION, functions.col(SparkSql.identifier(fieldName(df, batch.partitionColumn()))).cast("string"));
        } catch (RuntimeException e) {
            throw new SluiceException("the quality gate cannot read " + batch.table() + ": "
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse(""), e);
        }
    }

    private static String fieldName(Dataset<Row> df, String name) {
        for (String f : df.columns()) {
            if (f.equalsIgnoreCase(name)) {
                return f;
            }
        }
        throw new SluiceException("the batch's table has no column " + name);
    }
}
