package dev.sluice.quality.internal.deequ;

import com.amazon.deequ.constraints.ConstraintResult;
import com.amazon.deequ.constraints.ConstraintStatus$;
import dev.sluice.config.CheckSpec;
import dev.sluice.config.Expectation;
import dev.sluice.config.QuantileRanges;
import dev.sluice.config.Severity;
import dev.sluice.quality.CheckResult;
import dev.sluice.quality.CheckStatus;
import dev.sluice.quality.InvalidCheckException;
import dev.sluice.quality.MetricHistory;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.function.Function;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.jspecify.annotations.Nullable;

/**
 * Turns what Deequ measured on one partition into a {@link CheckResult}: the map, aggregate,
 * table, schema, freshness and anomaly rules of {@link DeequGate}'s NULL semantics. Used alike by
 * the single-partition and the grouped (many partitions in one pass) evaluation, so both judge
 * identically. Stateless.
 */
final class CheckJudge {

    /**
     * What judging a check on one partition may need.
     *
     * @param rows the partition's rows (for samples of unexpected values); only read when a map
     *     check has unexpected values; may hold only the columns the checks name
     * @param columns every column of the data judged, in order (for schema checks)
     * @param counts row and non-null counts
     * @param rowIdColumn the row id column for samples, or null
     * @param nominalStart the partition's nominal start, inclusive (in-partition checks), or null
     * @param nominalEnd the partition's nominal end, exclusive (freshness, in-partition checks), or null
     * @param extreme an aggregate by its {@link OwnAggregates} key: a column's least or greatest
     *     value (freshness, the min/max of a date, timestamp or string), its quantiles; null when
     *     it has none (no values)
     * @param valueCounts a column's non-null values and how often each occurs ({@link ValueCounts}),
     *     for the columns of distinct-value checks; empty for a column without values
     * @param history the accepted history of anomaly checks for this partition
     * @param duplicates the partition's unexpected rows of {@code expect_compound_columns_to_be_unique}
     *     over a column list, asked only when the check's metric is below 1
     */
    record PartitionData(Dataset<Row> rows, List<String> columns, Counts counts, @Nullable String rowIdColumn,
            @Nullable LocalDateTime nominalStart, @Nullable LocalDateTime nominalEnd, Function<String, @Nullable Object> extreme, Function<String, Map<Object, Long>> valueCounts, MetricHistory history,
            Function<List<String>, UnexpectedRows.Duplicates> duplicates) {
    }

    private CheckJudge() {
    }

    /**
     * The result of {@code plan} on one partition.
     *
     * @param deequ the result of the plan's Deequ constraint on the partition, or null (schema, freshness)
     */
    static CheckResult judge(CheckPlan plan, @Nullable ConstraintResult deequ, PartitionData data) {
        Counts counts = data.counts();
        CheckSpec spec = plan.spec();
        Expectation e = spec.expectation();
        Outcome o = switch (e.kind()) {
            case MAP, ROW -> mapOutcome(plan, deequ, data);
            case AGGREGATE, TABLE, METRIC -> {
                if (e == Expectation.EXPECT_COLUMN_QUANTILE_VALUES_TO_BE_BETWEEN) {
                    yield quantileOutcome(plan, data);
                }
                if (e.judgesDistinctValues()) {
                    yield distinctOutcome(spec, data);
                }
                if (plan.aggregateKey() != null) {
                    yield extremeOutcome(plan, data);
                }
                Double metric = metric(deequ);
                boolean held = deequ != null && deequ.status().equals(ConstraintStatus$.MODULE$.Success());
                if (e == Expectation.EXPECT_COLUMN_STDEV_TO_BE_BETWEEN) {
                    yield sampleDeviation(spec, metric, counts.nonNull(spec.column()), counts.rows());
                }
                if (e == Expectation.EXPECT_COMPOUND_COLUMNS_TO_BE_UNIQUE && (counts.rows() == 0 || metric == null)) {
                    // no rows, or every listed column NULL in every row (ignored, as in GE, where it is vacuously true)
                    yield Outcome.noData(0, counts.rows() == 0 ? "no rows to judge" : "no row has a value in " + spec.list("column_list"));
                }
                if (e == Expectation.EXPECT_COMPOUND_COLUMNS_TO_BE_UNIQUE && metric != null) {
                    // the rows judged: an all-NULL row is left out (GE's element count less its missing rows)
                    long rows = counts.nonNull(Counts.rowsKey(spec));
                    UnexpectedRows.Duplicates d = metric >= 1.0 ? UnexpectedRows.Duplicates.NONE
                            : data.duplicates().apply(spec.list("column_list").stream().map(Object::toString).toList());
                    long dupes = d.rows();
                    List<Object> values = new ArrayList<>(d.values());
                    List<@Nullable Long> ids = new ArrayList<>(d.ids());
                    yield new Outcome(held, metric, metric, rows, dupes, values, ids,
                            dupes + " of " + rows + " row(s) share their " + spec.list("column_list") + " with another row"
                                    + (values.isEmpty() ? "" : ", e.g. " + values.subList(0, Math.min(3, values.size()))));
                }
                boolean counted = e == Expectation.EXPECT_TABLE_ROW_COUNT_TO_BE_BETWEEN || e == Expectation.EXPECT_TABLE_ROW_COUNT_TO_EQUAL
                        || e == Expectation.EXPECT_COLUMN_UNIQUE_VALUE_COUNT_TO_BE_BETWEEN;
                Object observed = counted ? (Object) (metric == null ? 0L : metric.longValue()) : metric;
                if (metric == null && !counted && cannotMeasure(deequ, counts.rows()) == null) {
                    yield Outcome.noData(counts.rows(), "no values to measure");
                }
                String cannot = metric == null ? cannotMeasure(deequ, counts.rows()) : null;
                yield new Outcome(held, metric, observed, counts.rows(), 0, List.of(), List.of(),
                        cannot != null ? cannot : "measured " + observed);
            }
            case SCHEMA -> schemaOutcome(spec, data.columns());
            case FRESHNESS -> freshnessOutcome(spec, data);
            case INTERVAL -> intervalOutcome(spec, data);
            case ANOMALY -> {
                Double metric = metric(deequ);
                List<Double> past = data.history().accepted(spec.id());
                if (metric == null) {
                    String why = cannotMeasure(deequ, counts.rows());
                    yield why == null ? Outcome.noData(counts.rows(), "no values to measure")
                            : new Outcome(false, null, null, counts.rows(), 0, List.of(), List.of(), why);
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
        CheckStatus status = o.noData() ? CheckStatus.NO_DATA : o.insufficientHistory() ? CheckStatus.INSUFFICIENT_HISTORY
                : o.held() ? CheckStatus.PASSED : spec.severity() == Severity.ERROR ? CheckStatus.FAILED : CheckStatus.WARNED;
        boolean blocks = o.noData() && spec.noDataBlocks() && spec.severity() == Severity.ERROR;
        String message = !o.noData() ? o.message() : o.message() + (blocks ? "; blocks (no_data: block)"
                : spec.noDataBlocks() ? "; the partition goes on (a warn check never blocks)" : "; the partition goes on (no_data: allow)");
        return new CheckResult(spec.id(), e.id(), e.family(), spec.severity(), status, o.metric(), o.observed(),
                plan.threshold(), message, o.elements(), o.unexpected(), o.values(), o.rowIds(), blocks);
    }

    private static Outcome mapOutcome(CheckPlan plan, @Nullable ConstraintResult deequ, PartitionData data) {
        Counts counts = data.counts();
        CheckSpec spec = plan.spec();
        Expectation e = spec.expectation();
        boolean allRows = e == Expectation.EXPECT_COLUMN_VALUES_TO_NOT_BE_NULL || e == Expectation.EXPECT_COLUMN_VALUES_TO_BE_NULL
                || Expectation.nullsUnexpected(spec);
        boolean row = e.kind() == Expectation.Kind.ROW;
        long elements = allRows ? counts.rows() : row ? counts.nonNull(Counts.rowsKey(spec)) : counts.nonNull(spec.column());
        // Deequ could not evaluate the condition (e.g. types Spark cannot compare): the shared scan failed, so the
        // counts read 0 too; a failure naming why, never NO_DATA (an empty partition's failure is Deequ's "Empty state")
        String failed = metric(deequ) == null ? cannotMeasure(deequ, 1) : null;
        if (failed != null) {
            return new Outcome(false, null, null, elements, 0, List.of(), List.of(), failed);
        }
        if (elements == 0) {
            return Outcome.noData(0, counts.rows() == 0 ? "no rows to judge" : row ? "no rows to judge: ignore_row_if skips all "
                    + counts.rows() + " row(s)" : "no values to judge: " + spec.column() + " is NULL in all " + counts.rows() + " row(s)");
        }
        Double measured = metric(deequ);
        double passing = measured == null ? 0 : e == Expectation.EXPECT_COLUMN_VALUES_TO_BE_NULL ? 1 - measured : measured;
        long unexpected = Math.round(elements * (1 - passing));
        List<Object> values = new ArrayList<>();
        List<@Nullable Long> ids = new ArrayList<>();
        if (unexpected > 0) {
            UnexpectedRows.sample(data.rows(), plan, data.rowIdColumn(), values, ids);
        }
        // judged from the metric itself (a comparison that is NULL for every row measures 0 and must fail)
        boolean held = measured != null && passing >= spec.mostlyOrAll() - 1e-12;
        String message = unexpected + " of " + elements + (row ? " row(s)" : " value(s)") + " unexpected (" + percent(unexpected, elements) + ")"
                + (values.isEmpty() ? "" : ", e.g. " + values.subList(0, Math.min(5, values.size())));
        return new Outcome(held, passing, null, elements, unexpected, values, ids, message);
    }

    /**
     * GE's standard deviation: the sample one (n − 1), from Deequ's population deviation σ of the
     * n non-null values as σ·√(n / (n − 1)); fewer than two values have none: no data.
     */
    private static Outcome sampleDeviation(CheckSpec spec, @Nullable Double population, long n, long rows) {
        if (population == null || n < 2) {
            return Outcome.noData(rows, "no standard deviation: " + n + " non-null value(s), at least 2 needed");
        }
        double sample = population * Math.sqrt((double) n / (n - 1));
        // within 1e-12 relative of a bound counts as on it: the deviation is derived in floating point
        boolean held = Bounds.of(spec).contains(sample, 1e-12);
        return new Outcome(held, sample, sample, rows, 0, List.of(), List.of(), "measured " + sample + " (sample standard deviation)");
    }

    private static Outcome schemaOutcome(CheckSpec spec, List<String> all) {
        List<String> columns = new ArrayList<>();
        for (String c : all) {
            if (!c.startsWith("_")) {
                columns.add(c.toLowerCase(Locale.ROOT));
            }
        }
        if (spec.expectation() == Expectation.EXPECT_COLUMN_TO_EXIST) {
            int at = columns.indexOf(spec.column().toLowerCase(Locale.ROOT));
            Integer index = spec.param("column_index").map(i -> (int) Double.parseDouble(i.toString())).orElse(null);
            boolean held = at >= 0 && (index == null || index == at);
            return new Outcome(held, held ? 1.0 : 0.0, columns, 0, held ? 0 : 1, List.of(), List.of(),
                    at < 0 ? "missing; the columns are " + columns
                            : held ? "present" + (index == null ? "" : " at index " + index)
                            : "at index " + at + ", not " + index + "; the columns are " + columns);
        }
        switch (spec.expectation()) {
            case EXPECT_TABLE_COLUMN_COUNT_TO_EQUAL, EXPECT_TABLE_COLUMN_COUNT_TO_BE_BETWEEN -> {
                int n = columns.size();
                boolean held = spec.expectation() == Expectation.EXPECT_TABLE_COLUMN_COUNT_TO_EQUAL
                        ? n == Double.parseDouble(spec.param("value").orElseThrow().toString()) : Bounds.of(spec).contains(n);
                return new Outcome(held, (double) n, (long) n, 0, held ? 0 : 1, List.of(), List.of(), n + " column(s)");
            }
            case EXPECT_TABLE_COLUMNS_TO_MATCH_SET -> {
                java.util.Set<String> expected = new java.util.TreeSet<>();
                spec.list("column_set").forEach(o -> expected.add(String.valueOf(o).toLowerCase(Locale.ROOT)));
                java.util.Set<String> actual = new java.util.TreeSet<>(columns);
                boolean exact = spec.param("exact_match").map(v -> !"false".equals(v.toString())).orElse(true);
                boolean held = exact ? actual.equals(expected) : actual.containsAll(expected);
                return new Outcome(held, held ? 1.0 : 0.0, columns, 0, held ? 0 : 1, List.of(), List.of(),
                        held ? "as listed" : "the columns are " + columns);
            }
            default -> {
            }
        }
        if (spec.param("column_list").isEmpty()) {
            // GE: no list given (None) is vacuously true
            return new Outcome(true, 1.0, columns, 0, 0, List.of(), List.of(), "no list given");
        }
        List<String> expected = spec.list("column_list").stream().map(o -> o.toString().toLowerCase(Locale.ROOT)).toList();
        boolean held = columns.equals(expected);
        return new Outcome(held, held ? 1.0 : 0.0, columns, 0, held ? 0 : 1, List.of(), List.of(),
                held ? "as listed" : "the columns are " + columns);
    }

    /**
     * The least or greatest value of a date, timestamp or string column against the bounds, in the
     * column's own order; no values has no observed value: no data (GE: success false).
     */
    private static Outcome extremeOutcome(CheckPlan plan, PartitionData data) {
        CheckSpec spec = plan.spec();
        Object v = data.extreme().apply(plan.aggregateKey());
        if (v == null) {
            return Outcome.noData(data.counts().rows(), "no values to measure");
        }
        Bounds b = Bounds.of(spec);
        boolean held = true;
        if (b.min() != null) {
            int c = Extremes.compare(v, b.min().toString(), spec.id());
            held = b.strictMin() ? c > 0 : c >= 0;
        }
        if (held && b.max() != null) {
            int c = Extremes.compare(v, b.max().toString(), spec.id());
            held = b.strictMax() ? c < 0 : c <= 0;
        }
        Object observed = v instanceof String ? v : Extremes.time(v).toString();
        return new Outcome(held, null, observed, data.counts().rows(), 0, List.of(), List.of(), "measured " + observed);
    }

    /**
     * Each quantile of the non-null values within its range; the observed value is GE's
     * {@code {quantiles, values}}. No values: no data.
     */
    private static Outcome quantileOutcome(CheckPlan plan, PartitionData data) {
        QuantileRanges r = CheckPlan.quantileRanges(plan.spec());
        if (!(data.extreme().apply(plan.aggregateKey()) instanceof List<?> values) || values.size() != r.quantiles().size()) {
            return Outcome.noData(data.counts().rows(), "no values to measure");
        }
        List<String> outside = new ArrayList<>();
        List<Double> measured = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            double v = ((Number) values.get(i)).doubleValue();
            measured.add(v);
            if (!r.ranges().get(i).contains(v)) {
                outside.add("quantile " + r.quantiles().get(i) + " is " + v + ", outside " + r.ranges().get(i));
            }
        }
        Map<String, Object> observed = new LinkedHashMap<>();
        observed.put("quantiles", r.quantiles());
        observed.put("values", measured);
        return new Outcome(outside.isEmpty(), null, observed, data.counts().rows(), outside.size(), List.of(), List.of(),
                outside.isEmpty() ? "measured " + measured + " at " + r.quantiles() : String.join("; ", outside));
    }

    /**
     * The distinct non-null values (or the most common ones) against {@code value_set}, compared
     * by {@link ValueCounts#canonical}; the observed value is the sorted distinct values (the most
     * common ones). No values: no data. {@code most_common_value}: as GE, the values tied for most
     * common must be one value of the set, or with {@code ties_okay} include one.
     */
    private static Outcome distinctOutcome(CheckSpec spec, PartitionData data) {
        Expectation e = spec.expectation();
        Map<Object, Long> counts = data.valueCounts().apply(spec.column());
        if (counts.isEmpty()) {
            return Outcome.noData(data.counts().rows(), "no values to judge: " + spec.column() + " has no non-null value");
        }
        Object like = counts.keySet().iterator().next();
        java.util.Set<String> set = new java.util.LinkedHashSet<>();
        spec.list("value_set").forEach(v -> set.add(ValueCounts.canonical(v, like)));
        if (e == Expectation.EXPECT_COLUMN_MOST_COMMON_VALUE_TO_BE_IN_SET) {
            long top = java.util.Collections.max(counts.values());
            List<Object> modes = ValueCounts.sorted(counts.entrySet().stream().filter(x -> x.getValue() == top)
                    .map(Map.Entry::getKey).toList());
            long inSet = modes.stream().filter(m -> set.contains(ValueCounts.canonical(m, null))).count();
            boolean held = spec.flag("ties_okay") ? inSet > 0 : modes.size() == 1 && inSet == 1;
            return new Outcome(held, null, modes, data.counts().rows(), held ? 0 : modes.size() - inSet, held ? List.of() : modes, List.of(),
                    "most common " + modes + " (" + top + " row(s) each)");
        }
        List<Object> distinct = ValueCounts.sorted(counts.keySet());
        java.util.Set<String> actual = new java.util.LinkedHashSet<>();
        distinct.forEach(v -> actual.add(ValueCounts.canonical(v, null)));
        List<Object> outside = distinct.stream().filter(v -> !set.contains(ValueCounts.canonical(v, null))).toList();
        List<String> missing = set.stream().filter(v -> !actual.contains(v)).toList();
        boolean held = switch (e) {
            // GE: no value_set is vacuously true
            case EXPECT_COLUMN_DISTINCT_VALUES_TO_BE_IN_SET -> spec.param("value_set").isEmpty() || outside.isEmpty();
            case EXPECT_COLUMN_DISTINCT_VALUES_TO_CONTAIN_SET -> missing.isEmpty();
            default -> outside.isEmpty() && missing.isEmpty();
        };
        String message = distinct.size() + " distinct value(s)" + (distinct.size() <= 10 ? " " + distinct : "")
                + (outside.isEmpty() || e == Expectation.EXPECT_COLUMN_DISTINCT_VALUES_TO_CONTAIN_SET ? "" : "; not in the set: "
                        + outside.subList(0, Math.min(10, outside.size())))
                + (missing.isEmpty() || e == Expectation.EXPECT_COLUMN_DISTINCT_VALUES_TO_BE_IN_SET ? "" : "; missing from the data: " + missing);
        long unexpected = e == Expectation.EXPECT_COLUMN_DISTINCT_VALUES_TO_CONTAIN_SET ? missing.size() : outside.size();
        List<Object> sample = e == Expectation.EXPECT_COLUMN_DISTINCT_VALUES_TO_CONTAIN_SET ? List.of()
                : outside.subList(0, Math.min(CheckResult.SAMPLE, outside.size()));
        return new Outcome(held, null, distinct, data.counts().rows(), unexpected, sample, List.of(), message);
    }

    private static Outcome freshnessOutcome(CheckSpec spec, PartitionData data) {
        Object newest = data.extreme().apply(Extremes.key(true, spec.column()));
        LocalDateTime end = data.nominalEnd();
        if (newest == null || end == null) {
            return new Outcome(false, null, null, 0, 0, List.of(), List.of(),
                    newest == null ? "no values: nothing arrived for the partition" : "the partition has no nominal time");
        }
        LocalDateTime t = time(spec, newest);
        Duration lag = Duration.between(t, end);
        if (!t.isBefore(end)) {
            // a newest value at or after the end is not fresh data but data of a later interval
            return new Outcome(false, (double) lag.toSeconds(), t.toString(), 0, 0, List.of(), List.of(),
                    "newest " + spec.column() + " " + t + " is at or after the partition's end " + end
                            + ": values beyond the partition (another interval's data filed under this one?)");
        }
        boolean held = lag.compareTo(spec.maxLag().orElseThrow()) <= 0;
        return new Outcome(held, (double) lag.toSeconds(), t.toString(), 0, 0, List.of(), List.of(),
                "newest " + spec.column() + " " + t + " is " + lag + " before the partition's end " + end);
    }

    /** {@code expect_column_values_to_be_in_partition}: the least and greatest value within [nominal start, nominal end). */
    private static Outcome intervalOutcome(CheckSpec spec, PartitionData data) {
        Object least = data.extreme().apply(Extremes.key(false, spec.column()));
        Object greatest = data.extreme().apply(Extremes.key(true, spec.column()));
        LocalDateTime start = data.nominalStart();
        LocalDateTime end = data.nominalEnd();
        if (start == null || end == null) {
            return new Outcome(false, null, null, data.counts().rows(), 0, List.of(), List.of(),
                    "the partition has no nominal time: " + spec.expectation().id() + " judges a time-partitioned table");
        }
        if (least == null || greatest == null) {
            return Outcome.noData(data.counts().rows(), "no values of " + spec.column() + " to judge");
        }
        LocalDateTime min = time(spec, least);
        LocalDateTime max = time(spec, greatest);
        boolean held = !min.isBefore(start) && max.isBefore(end);
        List<Object> outside = new ArrayList<>();
        if (min.isBefore(start)) {
            outside.add(min.toString());
        }
        if (!max.isBefore(end)) {
            outside.add(max.toString());
        }
        String range = min.equals(max) ? "all " + min : "from " + min + " to " + max;
        return new Outcome(held, null, List.of(min.toString(), max.toString()), data.counts().rows(), 0, outside, List.of(),
                spec.column() + " " + range + (held ? ", within " : ", outside ") + "the partition's interval [" + start + ", " + end + ")"
                        + (held ? "" : ": rows of another interval are filed under this partition"));
    }

    private static LocalDateTime time(CheckSpec spec, Object value) {
        LocalDateTime t = Extremes.time(value);
        if (t == null) {
            throw new InvalidCheckException(spec.id() + ": " + spec.expectation().id() + " needs a date or timestamp column; "
                    + spec.column() + " holds " + value.getClass().getSimpleName());
        }
        return t;
    }

    /**
     * Why there is no metric when it is not for want of values: what Deequ said (a column of the
     * wrong type, a missing column); null when there were no values (always so for no rows, where
     * Deequ's failures vary by analyzer, and for Deequ's "Empty state").
     */
    private static @Nullable String cannotMeasure(@Nullable ConstraintResult r, long rows) {
        if (rows > 0 && r != null && r.metric().isDefined() && r.metric().get().value().isFailure()) {
            String why = String.valueOf(r.metric().get().value().failed().get().getMessage());
            if (!why.contains("Empty state")) {
                return "cannot measure: " + why.lines().findFirst().orElse(why);
            }
        }
        return null;
    }

    private static @Nullable Double metric(@Nullable ConstraintResult r) {
        if (r == null || r.metric().isEmpty() || r.metric().get().value().isFailure()) {
            return null;
        }
        Object v = r.metric().get().value().get();
        return v instanceof Number n ? n.doubleValue() : null;
    }

    private static String percent(long part, long whole) {
        return String.format(Locale.ROOT, "%.3f %%", 100.0 * part / whole);
    }

    /** What a check found, before its status. */
    private record Outcome(boolean held, @Nullable Double metric, @Nullable Object observed, long elements, long unexpected,
            List<Object> values, List<@Nullable Long> rowIds, String message, boolean insufficientHistory, boolean noData) {
        Outcome(boolean held, @Nullable Double metric, @Nullable Object observed, long elements, long unexpected,
                List<Object> values, List<@Nullable Long> rowIds, String message) {
            this(held, metric, observed, elements, unexpected, values, rowIds, message, false, false);
        }

        /** Nothing to judge: neither held nor broken ({@link CheckStatus#NO_DATA}). */
        static Outcome noData(long elements, String message) {
            return new Outcome(false, null, null, elements, 0, List.of(), List.of(), message, false, true);
        }

        Outcome insufficient() {
            return new Outcome(true, metric, observed, elements, unexpected, values, rowIds, message, true, false);
        }
    }

}
