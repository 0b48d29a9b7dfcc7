package dev.sluice.quality.internal.deequ;

import com.amazon.deequ.VerificationResult;
import com.amazon.deequ.VerificationRunBuilder;
import com.amazon.deequ.VerificationSuite;
import com.amazon.deequ.constraints.ConstraintResult;
import com.amazon.deequ.constraints.ConstraintStatus$;
import dev.sluice.config.CheckSpec;
import dev.sluice.config.Expectation;
import dev.sluice.config.Severity;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.Partition;
import dev.sluice.core.SluiceException;
import dev.sluice.quality.Boundary;
import dev.sluice.quality.CheckResult;
import dev.sluice.quality.CheckStatus;
import dev.sluice.quality.GateResult;
import dev.sluice.quality.MetricHistory;
import dev.sluice.quality.PartitionSource;
import dev.sluice.quality.QualityGate;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.jspecify.annotations.Nullable;

/**
 * The {@link QualityGate} on Deequ: reads the partition over JDBC into Spark, runs all Deequ-backed checks in one {@code VerificationSuite} (scan-shareable
 * analyzers share one pass), judges schema, freshness and anomaly checks, and collects up to
 * {@value CheckResult#SAMPLE} unexpected values per failing map check.
 *
 * <p>NULL semantics (as GE's Spark backend): not_be_null and be_null judge every row; every other
 * map check ignores NULLs (they are neither expected nor unexpected, and {@code mostly} is a
 * fraction of the non-null values); a map check over no non-null values passes (vacuously, as in
 * GE); aggregates over no values have no metric and fail. An empty partition has row count 0.
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
    public GateResult evaluate(DatasetRef dataset, Partition partition, Boundary boundary, PartitionSource source,
            List<CheckSpec> checks, MetricHistory history) {
        long start = System.nanoTime();
        SparkSession spark = SparkSessions.get(master);
        // not cached: re-reading a partition over JDBC for the odd second pass (a uniqueness grouping,
        // a sample of unexpected values) measured cheaper than materialising a cache for every gate
        Dataset<Row> df = read(spark, source);
        List<CheckPlan> plans = new ArrayList<>();
        for (CheckSpec c : checks) {
            plans.add(CheckPlan.of(c, df.schema()));
        }
        Map<com.amazon.deequ.analyzers.Analyzer<?, com.amazon.deequ.metrics.Metric<?>>, String> countAnalyzers = Counts.analyzers(checks);
        Map<Object, Object> metrics = new LinkedHashMap<>();
        Map<CheckSpec, ConstraintResult> deequ = runDeequ(df, plans, countAnalyzers.keySet(), metrics);
        Counts counts = Counts.of(countAnalyzers, metrics);
        List<CheckResult> results = new ArrayList<>();
        for (CheckPlan p : plans) {
            results.add(judge(p, deequ.get(p.spec()), df, counts, source, history));
        }
        return new GateResult(dataset, partition, boundary, results, (System.nanoTime() - start) / 1_000_000);
    }

    private static Dataset<Row> read(SparkSession spark, PartitionSource source) {
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
            Set<com.amazon.deequ.analyzers.Analyzer<?, com.amazon.deequ.metrics.Metric<?>>> analyzers, Map<Object, Object> metrics) {
        VerificationRunBuilder run = new VerificationSuite().onData(df).addRequiredAnalyzers(Scala.seq(new ArrayList<>(analyzers)));
        Map<com.amazon.deequ.checks.Check, CheckSpec> bySpec = new LinkedHashMap<>();
        for (CheckPlan p : plans) {
            if (p.deequ() != null) {
                run = run.addCheck(p.deequ());
                bySpec.put(p.deequ(), p.spec());
            }
        }
        Map<CheckSpec, ConstraintResult> out = new LinkedHashMap<>();
        VerificationResult result = run.run();
        scala.collection.JavaConverters.mapAsJavaMapConverter(result.metrics()).asJava().forEach((a, m) ->
                metrics.put(a, m.value().isSuccess() ? m.value().get() : null));
        bySpec.forEach((check, spec) -> {
            var r = result.checkResults().get(check).get();
            out.put(spec, r.constraintResults().head());
        });
        return out;
    }

    private CheckResult judge(CheckPlan plan, @Nullable ConstraintResult deequ, Dataset<Row> df, Counts counts,
            PartitionSource source, MetricHistory history) {
        CheckSpec spec = plan.spec();
        Expectation e = spec.expectation();
        Outcome o = switch (e.kind()) {
            case MAP -> mapOutcome(plan, deequ, df, counts, source);
            case AGGREGATE, TABLE -> {
                Double metric = metric(deequ);
                boolean held = deequ != null && deequ.status() == ConstraintStatus$.MODULE$.Success();
                if (e == Expectation.EXPECT_COMPOUND_COLUMNS_TO_BE_UNIQUE && counts.rows() == 0) {
                    yield new Outcome(true, null, null, 0, 0, List.of(), List.of(), "no rows to judge");
                }
                if (e == Expectation.EXPECT_COMPOUND_COLUMNS_TO_BE_UNIQUE && metric != null) {
                    long rows = counts.rows();
                    long dupes = Math.round(rows * (1 - metric));
                    yield new Outcome(held, metric, metric, rows, dupes, List.of(), List.of(),
                            dupes + " of " + rows + " row(s) share their " + spec.list("column_list") + " with another row");
                }
                Object observed = e == Expectation.EXPECT_TABLE_ROW_COUNT_TO_BE_BETWEEN
                        ? (Object) (metric == null ? 0L : metric.longValue()) : metric;
                yield new Outcome(held, metric, observed, counts.rows(), 0, List.of(), List.of(),
                        metric == null ? "no values to measure" : "measured " + observed);
            }
            case SCHEMA -> schemaOutcome(spec, df);
            case FRESHNESS -> freshnessOutcome(spec, df, source);
            case ANOMALY -> {
                Double metric = metric(deequ);
                List<Double> past = history.accepted(spec.id());
                if (metric == null) {
                    yield new Outcome(false, null, null, counts.rows(), 0, List.of(), List.of(), "no values to measure");
                }
                if (past.size() < AnomalyJudge.minHistory(spec)) {
                    yield new Outcome(true, metric, metric, counts.rows(), 0, List.of(), List.of(),
                            "insufficient history: " + past.size() + " accepted partition(s), " + AnomalyJudge.minHistory(spec) + " needed")
                            .insufficient();
                }
                boolean anomalous = AnomalyJudge.anomaly(spec, past, metric).isPresent();
                yield new Outcome(!anomalous, metric, metric, counts.rows(), 0, List.of(), List.of(),
                        (anomalous ? "anomaly: " : "in line: ") + AnomalyJudge.explain(spec, past, metric));
            }
        };
        CheckStatus status = o.insufficientHistory() ? CheckStatus.INSUFFICIENT_HISTORY
                : o.held() ? CheckStatus.PASSED : spec.severity() == Severity.ERROR ? CheckStatus.FAILED : CheckStatus.WARNED;
        return new CheckResult(spec.id(), e.id(), e.family(), spec.severity(), status, o.metric(), o.observed(),
                plan.threshold(), o.message(), o.elements(), o.unexpected(), o.values(), o.rowIds());
    }

    private static Outcome mapOutcome(CheckPlan plan, @Nullable ConstraintResult deequ, Dataset<Row> df, Counts counts,
            PartitionSource source) {
        CheckSpec spec = plan.spec();
        Expectation e = spec.expectation();
        boolean allRows = e == Expectation.EXPECT_COLUMN_VALUES_TO_NOT_BE_NULL || e == Expectation.EXPECT_COLUMN_VALUES_TO_BE_NULL
                || Expectation.nullsUnexpected(spec);
        long elements = allRows ? counts.rows() : counts.nonNull(spec.column());
        if (elements == 0) {
            return new Outcome(true, null, null, 0, 0, List.of(), List.of(), "no values to judge");
        }
        Double measured = metric(deequ);
        double passing = measured == null ? 0 : e == Expectation.EXPECT_COLUMN_VALUES_TO_BE_NULL ? 1 - measured : measured;
        long unexpected = Math.round(elements * (1 - passing));
        List<Object> values = new ArrayList<>();
        List<Long> ids = new ArrayList<>();
        if (unexpected > 0) {
            UnexpectedRows.sample(df, plan, source.rowIdColumn(), values, ids);
        }
        // judged from the metric itself (a comparison that is NULL for every row measures 0 and must fail)
        boolean held = measured != null && passing >= spec.mostlyOrAll() - 1e-12;
        String message = unexpected + " of " + elements + " value(s) unexpected (" + percent(unexpected, elements) + ")"
                + (values.isEmpty() ? "" : ", e.g. " + values.subList(0, Math.min(5, values.size())));
        return new Outcome(held, passing, null, elements, unexpected, values, ids, message);
    }

    private static Outcome schemaOutcome(CheckSpec spec, Dataset<Row> df) {
        List<String> columns = new ArrayList<>();
        for (String c : df.columns()) {
            if (!c.startsWith("_")) {
                columns.add(c.toLowerCase(java.util.Locale.ROOT));
            }
        }
        if (spec.expectation() == Expectation.EXPECT_COLUMN_TO_EXIST) {
            boolean held = columns.contains(spec.column().toLowerCase(java.util.Locale.ROOT));
            return new Outcome(held, held ? 1.0 : 0.0, columns, 0, held ? 0 : 1, List.of(), List.of(),
                    held ? "present" : "missing; the columns are " + columns);
        }
        List<String> expected = spec.list("column_list").stream().map(o -> o.toString().toLowerCase(java.util.Locale.ROOT)).toList();
        boolean held = columns.equals(expected);
        return new Outcome(held, held ? 1.0 : 0.0, columns, 0, held ? 0 : 1, List.of(), List.of(),
                held ? "as listed" : "the columns are " + columns);
    }

    private static Outcome freshnessOutcome(CheckSpec spec, Dataset<Row> df, PartitionSource source) {
        Object newest = df.agg(functions.max(functions.col(spec.column()))).first().get(0);
        LocalDateTime end = source.nominalEnd();
        if (newest == null || end == null) {
            return new Outcome(false, null, null, 0, 0, List.of(), List.of(),
                    newest == null ? "no values: nothing arrived for the partition" : "the partition has no nominal time");
        }
        LocalDateTime t = newest instanceof LocalDateTime l ? l : newest instanceof LocalDate d ? d.atStartOfDay()
                : newest instanceof java.sql.Timestamp ts ? ts.toLocalDateTime()
                : newest instanceof java.time.Instant i ? LocalDateTime.ofInstant(i, java.time.ZoneOffset.UTC) : null;
        if (t == null) {
            throw new dev.sluice.quality.InvalidCheckException(spec.id() + ": freshness needs a date or timestamp column; "
                    + spec.column() + " holds " + newest.getClass().getSimpleName());
        }
        Duration lag = Duration.between(t, end);
        boolean held = lag.compareTo(spec.maxLag().orElseThrow()) <= 0;
        return new Outcome(held, (double) lag.toSeconds(), t.toString(), 0, 0, List.of(), List.of(),
                "newest " + spec.column() + " " + t + " is " + lag + " before the partition's end " + end);
    }

    private static @Nullable Double metric(@Nullable ConstraintResult r) {
        if (r == null || r.metric().isEmpty() || r.metric().get().value().isFailure()) {
            return null;
        }
        Object v = r.metric().get().value().get();
        return v instanceof Number n ? n.doubleValue() : null;
    }

    private static String percent(long part, long whole) {
        return String.format(java.util.Locale.ROOT, "%.3f %%", 100.0 * part / whole);
    }

    private static String firstLine(Throwable e) {
        String m = String.valueOf(e.getMessage());
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }

    /** What a check found, before its status. */
    private record Outcome(boolean held, @Nullable Double metric, @Nullable Object observed, long elements, long unexpected,
            List<Object> values, List<Long> rowIds, String message, boolean insufficientHistory) {
        Outcome(boolean held, @Nullable Double metric, @Nullable Object observed, long elements, long unexpected,
                List<Object> values, List<Long> rowIds, String message) {
            this(held, metric, observed, elements, unexpected, values, rowIds, message, false);
        }

        Outcome insufficient() {
            return new Outcome(true, metric, observed, elements, unexpected, values, rowIds, message, true);
        }
    }

    /** Row count and non-null counts of the checked columns, from Deequ's Size and Completeness metrics. */
    private record Counts(long rows, Map<String, Long> nonNull) {

        static final com.amazon.deequ.analyzers.Size SIZE = new com.amazon.deequ.analyzers.Size(Scala.none());

        /** The analyzers to add to the suite, each with the column it counts ("" for the row count). */
        @SuppressWarnings("unchecked")
        static Map<com.amazon.deequ.analyzers.Analyzer<?, com.amazon.deequ.metrics.Metric<?>>, String> analyzers(List<CheckSpec> checks) {
            Map<com.amazon.deequ.analyzers.Analyzer<?, com.amazon.deequ.metrics.Metric<?>>, String> out = new LinkedHashMap<>();
            out.put((com.amazon.deequ.analyzers.Analyzer<?, com.amazon.deequ.metrics.Metric<?>>) (Object) SIZE, "");
            for (CheckSpec c : checks) {
                if (c.column() != null && c.expectation().kind() == Expectation.Kind.MAP) {
                    out.put((com.amazon.deequ.analyzers.Analyzer<?, com.amazon.deequ.metrics.Metric<?>>) (Object)
                            new com.amazon.deequ.analyzers.Completeness(c.column(), Scala.none(), Scala.none()), c.column());
                }
            }
            return out;
        }

        static Counts of(Map<com.amazon.deequ.analyzers.Analyzer<?, com.amazon.deequ.metrics.Metric<?>>, String> analyzers,
                Map<Object, Object> metrics) {
            Object size = metrics.get(SIZE);
            long rows = size instanceof Number n ? Math.round(n.doubleValue()) : 0;
            Map<String, Long> nn = new LinkedHashMap<>();
            analyzers.forEach((a, column) -> {
                if (!column.isEmpty()) {
                    Object completeness = metrics.get(a);
                    nn.put(column, completeness instanceof Number n ? Math.round(n.doubleValue() * rows) : 0L);
                }
            });
            return new Counts(rows, nn);
        }

        long nonNull(String column) {
            return nonNull.getOrDefault(column, 0L);
        }
    }
}
