package dev.sluice.config;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The check vocabulary: Great Expectations' expectation names (https://greatexpectations.io/expectations/,
 * semantics as in GE's Spark backend) plus Sluice's freshness, in-partition and anomaly checks. Each names its
 * family, its kind and the parameters it takes.
 */
public enum Expectation {
    EXPECT_COLUMN_VALUES_TO_NOT_BE_NULL(CheckFamily.COMPLETENESS, Kind.MAP, Set.of()),
    EXPECT_COLUMN_VALUES_TO_BE_NULL(CheckFamily.COMPLETENESS, Kind.MAP, Set.of()),
    EXPECT_COLUMN_VALUES_TO_BE_UNIQUE(CheckFamily.UNIQUENESS, Kind.MAP, Set.of()),
    EXPECT_COLUMN_VALUES_TO_BE_IN_SET(CheckFamily.VALIDITY, Kind.MAP, Set.of("value_set", "null_values")),
    EXPECT_COLUMN_VALUES_TO_BE_BETWEEN(CheckFamily.VALIDITY, Kind.MAP,
            Set.of("min_value", "max_value", "strict_min", "strict_max", "null_values")),
    EXPECT_COLUMN_VALUES_TO_MATCH_REGEX(CheckFamily.VALIDITY, Kind.MAP, Set.of("regex", "null_values")),
    EXPECT_COLUMN_VALUES_TO_MATCH_STRFTIME_FORMAT(CheckFamily.VALIDITY, Kind.MAP, Set.of("strftime_format", "null_values")),
    EXPECT_COLUMN_VALUES_TO_NOT_BE_IN_SET(CheckFamily.VALIDITY, Kind.MAP, Set.of("value_set", "null_values")),
    EXPECT_COLUMN_VALUES_TO_NOT_MATCH_REGEX(CheckFamily.VALIDITY, Kind.MAP, Set.of("regex", "null_values")),
    /** {@code match_on: any} (the default: one of the patterns matches) or {@code all}. */
    EXPECT_COLUMN_VALUES_TO_MATCH_REGEX_LIST(CheckFamily.VALIDITY, Kind.MAP, Set.of("regex_list", "match_on", "null_values")),
    /** The length in characters of each (string) value within {@code min_value} … {@code max_value}, both inclusive. */
    EXPECT_COLUMN_VALUE_LENGTHS_TO_BE_BETWEEN(CheckFamily.VALIDITY, Kind.MAP, Set.of("min_value", "max_value", "null_values")),
    EXPECT_COLUMN_VALUE_LENGTHS_TO_EQUAL(CheckFamily.VALIDITY, Kind.MAP, Set.of("value", "null_values")),
    EXPECT_COLUMN_MEAN_TO_BE_BETWEEN(CheckFamily.DISTRIBUTION, Kind.AGGREGATE, Set.of("min_value", "max_value", "strict_min", "strict_max")),
    EXPECT_COLUMN_MIN_TO_BE_BETWEEN(CheckFamily.VALIDITY, Kind.AGGREGATE, Set.of("min_value", "max_value", "strict_min", "strict_max")),
    EXPECT_COLUMN_MAX_TO_BE_BETWEEN(CheckFamily.VALIDITY, Kind.AGGREGATE, Set.of("min_value", "max_value", "strict_min", "strict_max")),
    /** Deequ's {@code Sum} of the non-null values. */
    EXPECT_COLUMN_SUM_TO_BE_BETWEEN(CheckFamily.DISTRIBUTION, Kind.AGGREGATE, Set.of("min_value", "max_value", "strict_min", "strict_max")),
    /**
     * The sample standard deviation of the non-null values (GE's, n − 1 in the denominator), from
     * Deequ's {@code StandardDeviation}, which is the population one, times √(n / (n − 1)). The
     * anomaly metric {@code stddev} is Deequ's population one.
     */
    EXPECT_COLUMN_STDEV_TO_BE_BETWEEN(CheckFamily.DISTRIBUTION, Kind.AGGREGATE, Set.of("min_value", "max_value", "strict_min", "strict_max")),
    /** The number of distinct non-null values (Deequ's {@code CountDistinct}). */
    EXPECT_COLUMN_UNIQUE_VALUE_COUNT_TO_BE_BETWEEN(CheckFamily.UNIQUENESS, Kind.AGGREGATE, Set.of("min_value", "max_value", "strict_min", "strict_max")),
    /** Distinct values over non-null values (Deequ's {@code Distinctness}). */
    EXPECT_COLUMN_PROPORTION_OF_UNIQUE_VALUES_TO_BE_BETWEEN(CheckFamily.UNIQUENESS, Kind.AGGREGATE,
            Set.of("min_value", "max_value", "strict_min", "strict_max")),
    /** The exact median, the mean of the two middle values of an even count (Deequ's {@code ExactQuantile(0.5)}). */
    EXPECT_COLUMN_MEDIAN_TO_BE_BETWEEN(CheckFamily.DISTRIBUTION, Kind.AGGREGATE, Set.of("min_value", "max_value", "strict_min", "strict_max")),
    /**
     * Each of {@code quantile_ranges.quantiles} (fractions in [0, 1]) of the non-null values within
     * its {@code quantile_ranges.value_ranges} entry ({@code [min, max]}, inclusive, null for an open
     * side). The quantile is an element of the column as Spark's {@code approxQuantile} gives it
     * (GE's Spark backend): exact unless {@code allow_relative_error} gives a relative rank error.
     */
    EXPECT_COLUMN_QUANTILE_VALUES_TO_BE_BETWEEN(CheckFamily.DISTRIBUTION, Kind.AGGREGATE, Set.of("quantile_ranges", "allow_relative_error")),
    /** The distinct non-null values are all in {@code value_set} (values compared in the column's type). */
    EXPECT_COLUMN_DISTINCT_VALUES_TO_BE_IN_SET(CheckFamily.VALIDITY, Kind.AGGREGATE, Set.of("value_set")),
    /** The distinct non-null values include every value of {@code value_set}. */
    EXPECT_COLUMN_DISTINCT_VALUES_TO_CONTAIN_SET(CheckFamily.VALIDITY, Kind.AGGREGATE, Set.of("value_set")),
    /** The distinct non-null values are exactly {@code value_set}. */
    EXPECT_COLUMN_DISTINCT_VALUES_TO_EQUAL_SET(CheckFamily.VALIDITY, Kind.AGGREGATE, Set.of("value_set")),
    /**
     * The most common non-null value (every value tied for most common) is in {@code value_set};
     * with {@code ties_okay}, one of the tied values in the set is enough.
     */
    EXPECT_COLUMN_MOST_COMMON_VALUE_TO_BE_IN_SET(CheckFamily.VALIDITY, Kind.AGGREGATE, Set.of("value_set", "ties_okay")),
    /**
     * {@code column_A} equals {@code column_B} in each row; rows are ignored per {@code ignore_row_if}
     * ({@code both_values_are_missing}, the default, {@code either_value_is_missing}, {@code neither}).
     */
    EXPECT_COLUMN_PAIR_VALUES_TO_BE_EQUAL(CheckFamily.VALIDITY, Kind.ROW, Set.of("column_A", "column_B", "ignore_row_if")),
    /** {@code column_A} above {@code column_B} (or equal with {@code or_equal}) in each row; {@code ignore_row_if} as for the pair's equality. */
    EXPECT_COLUMN_PAIR_VALUES_A_TO_BE_GREATER_THAN_B(CheckFamily.VALIDITY, Kind.ROW,
            Set.of("column_A", "column_B", "or_equal", "ignore_row_if")),
    /** Each row's ({@code column_A}, {@code column_B}) is one of {@code value_pairs_set} ({@code [[a, b], …]}). */
    EXPECT_COLUMN_PAIR_VALUES_TO_BE_IN_SET(CheckFamily.VALIDITY, Kind.ROW, Set.of("column_A", "column_B", "value_pairs_set", "ignore_row_if")),
    /**
     * The values of {@code column_list} sum to {@code sum_total} in each row; rows are ignored per
     * {@code ignore_row_if} ({@code all_values_are_missing}, the default, {@code any_value_is_missing}, {@code never}).
     */
    EXPECT_MULTICOLUMN_SUM_TO_EQUAL(CheckFamily.VALIDITY, Kind.ROW, Set.of("column_list", "sum_total", "ignore_row_if")),
    /** The values of {@code column_list} differ from each other within each row; {@code ignore_row_if} as for the sum. */
    EXPECT_SELECT_COLUMN_VALUES_TO_BE_UNIQUE_WITHIN_RECORD(CheckFamily.UNIQUENESS, Kind.ROW, Set.of("column_list", "ignore_row_if")),
    EXPECT_TABLE_ROW_COUNT_TO_BE_BETWEEN(CheckFamily.COMPLETENESS, Kind.TABLE, Set.of("min_value", "max_value")),
    EXPECT_TABLE_ROW_COUNT_TO_EQUAL(CheckFamily.COMPLETENESS, Kind.TABLE, Set.of("value")),
    EXPECT_COMPOUND_COLUMNS_TO_BE_UNIQUE(CheckFamily.UNIQUENESS, Kind.TABLE, Set.of("column_list")),
    /** With {@code column_index}: the column is at that position (0-based, metadata columns not counted). */
    EXPECT_COLUMN_TO_EXIST(CheckFamily.VALIDITY, Kind.SCHEMA, Set.of("column_index")),
    EXPECT_TABLE_COLUMNS_TO_MATCH_ORDERED_LIST(CheckFamily.VALIDITY, Kind.SCHEMA, Set.of("column_list")),
    /** {@code exact_match: true} (the default): the same columns in any order; false: at least these. */
    EXPECT_TABLE_COLUMNS_TO_MATCH_SET(CheckFamily.VALIDITY, Kind.SCHEMA, Set.of("column_set", "exact_match")),
    EXPECT_TABLE_COLUMN_COUNT_TO_EQUAL(CheckFamily.VALIDITY, Kind.SCHEMA, Set.of("value")),
    EXPECT_TABLE_COLUMN_COUNT_TO_BE_BETWEEN(CheckFamily.VALIDITY, Kind.SCHEMA, Set.of("min_value", "max_value")),
    /**
     * Sluice: the newest value of a timestamp column is at most {@code max_lag} (ISO-8601 duration)
     * before the end of the partition's nominal interval (for a daily partition D: D+1 00:00).
     * Judged against the partition, not the wall clock, so a historical load is judged fairly.
     */
    EXPECT_PARTITION_TO_BE_FRESH(CheckFamily.FRESHNESS, Kind.FRESHNESS, Set.of("max_lag")),
    /**
     * Sluice: every value of a date or timestamp column lies in the partition's nominal interval
     * [start, end) (for a daily partition D: D 00:00 inclusive to D+1 00:00 exclusive; a date is
     * its midnight), judged by the column's least and greatest value. Catches a landed file of
     * another day filed under this partition, which no row-level rule sees. NULLs are not judged
     * (pair it with {@code expect_column_values_to_not_be_null}); no values at all is NO_DATA.
     */
    EXPECT_COLUMN_VALUES_TO_BE_IN_PARTITION(CheckFamily.VALIDITY, Kind.INTERVAL, Set.of()),
    /**
     * Sluice: a {@link Metric} (e.g. {@code row_count}, the {@code mean} of a column) compared
     * with its accepted history of earlier partitions by a Deequ anomaly strategy
     * ({@code relative_rate_of_change} with {@code max_rate_decrease}/{@code max_rate_increase}, or
     * {@code online_normal} with {@code stddevs}); fewer than {@code min_history} (default 5) earlier
     * values yields INSUFFICIENT_HISTORY.
     */
    EXPECT_METRIC_TO_NOT_BE_ANOMALOUS(CheckFamily.DISTRIBUTION, Kind.ANOMALY,
            Set.of("metric", "strategy", "max_rate_decrease", "max_rate_increase", "stddevs", "min_history",
                    "column_list", "other_column", "quantile")),
    /**
     * Sluice: a Deequ metric ({@link Metric}) of the partition within {@code min_value} …
     * {@code max_value} ({@code strict_min}/{@code strict_max}); the metrics a Deequ user expects
     * that GE has no expectation for.
     */
    EXPECT_METRIC_TO_BE_BETWEEN(CheckFamily.DISTRIBUTION, Kind.METRIC,
            Set.of("metric", "column_list", "other_column", "quantile", "min_value", "max_value", "strict_min", "strict_max"));

    /** How a check is computed. */
    public enum Kind {
        /** Judges each value of a column; {@code mostly} is the fraction that must pass. */
        MAP,
        /** Judges each row's values of several columns (a pair, a list); {@code mostly} is the fraction of judged rows that must pass. */
        ROW,
        /** Judges an aggregate of a column. */
        AGGREGATE,
        /** Judges the table's rows as a whole. */
        TABLE,
        /** Judges the table's columns. */
        SCHEMA,
        /** Judges the newest value of a column against the partition's nominal end. */
        FRESHNESS,
        /** Judges a column's least and greatest values against the partition's nominal interval. */
        INTERVAL,
        ANOMALY,
        /** Judges one Deequ metric of the rows against bounds. */
        METRIC
    }

    private final CheckFamily family;
    private final Kind kind;
    private final Set<String> parameters;

    Expectation(CheckFamily family, Kind kind, Set<String> parameters) {
        this.family = family;
        this.kind = kind;
        this.parameters = parameters;
    }

    public CheckFamily family() {
        return family;
    }

    public Kind kind() {
        return kind;
    }

    /**
     * True when a NULL counts as an unexpected value ({@code null_values: unexpected}) rather than
     * being ignored (the default, as in GE; Deequ's {@code isContainedIn} would count it as passing
     * and SQL's {@code IN} as unknown, which is why the choice is explicit).
     */
    public static boolean nullsUnexpected(CheckSpec spec) {
        return "unexpected".equals(spec.param("null_values").map(Object::toString).orElse("ignore"));
    }

    /** The parameter keys this expectation takes besides id, severity, column and mostly. */
    public Set<String> parameters() {
        return parameters;
    }

    /**
     * True when {@code mostly} applies: a column-values check, or the compound uniqueness (a
     * fraction of the rows), as in GE.
     */
    public boolean takesMostly() {
        return kind == Kind.MAP || kind == Kind.ROW || this == EXPECT_COMPOUND_COLUMNS_TO_BE_UNIQUE;
    }

    /** True when the check judges one column ({@code column} required). */
    public boolean needsColumn() {
        return kind == Kind.MAP || kind == Kind.AGGREGATE || kind == Kind.FRESHNESS || kind == Kind.INTERVAL
                || this == EXPECT_COLUMN_TO_EXIST;
    }

    /** The columns a row check judges: {@code column_A} and {@code column_B}, else {@code column_list}; empty for other checks. */
    public static java.util.List<String> rowColumns(CheckSpec spec) {
        if (spec.expectation().kind() != Kind.ROW) {
            return java.util.List.of();
        }
        if (spec.param("column_A").isPresent() || spec.param("column_B").isPresent()) {
            return java.util.stream.Stream.of(spec.param("column_A"), spec.param("column_B"))
                    .flatMap(java.util.Optional::stream).map(Object::toString).toList();
        }
        return spec.list("column_list").stream().map(Object::toString).toList();
    }

    /** True for the checks judged on the set of the column's distinct values (or their counts), which take any column type. */
    public boolean judgesDistinctValues() {
        return this == EXPECT_COLUMN_DISTINCT_VALUES_TO_BE_IN_SET || this == EXPECT_COLUMN_DISTINCT_VALUES_TO_CONTAIN_SET
                || this == EXPECT_COLUMN_DISTINCT_VALUES_TO_EQUAL_SET || this == EXPECT_COLUMN_MOST_COMMON_VALUE_TO_BE_IN_SET;
    }

    /** The GE name, e.g. {@code expect_column_values_to_be_unique} ({@code expect_column_pair_values_A_to_be_greater_than_B} keeps GE's capitals). */
    public String id() {
        String id = name().toLowerCase(Locale.ROOT);
        return this == EXPECT_COLUMN_PAIR_VALUES_A_TO_BE_GREATER_THAN_B ? id.replace("_a_to_", "_A_to_").replace("_than_b", "_than_B") : id;
    }

    /**
     * Parses a name, ignoring case ({@code A}/{@code B} of the pair names); GE's older
     * {@code expect_multicolumn_values_to_be_unique} is read as
     * {@code expect_select_column_values_to_be_unique_within_record}, which replaced it. Empty when unknown.
     */
    public static Optional<Expectation> parse(String text) {
        if ("expect_multicolumn_values_to_be_unique".equalsIgnoreCase(text)) {
            return Optional.of(EXPECT_SELECT_COLUMN_VALUES_TO_BE_UNIQUE_WITHIN_RECORD);
        }
        for (Expectation e : values()) {
            if (e.id().equalsIgnoreCase(text)) {
                return Optional.of(e);
            }
        }
        return Optional.empty();
    }
}
