package dev.sluice.quality.internal.deequ;

import com.amazon.deequ.checks.Check;
import com.amazon.deequ.checks.CheckLevel$;
import dev.sluice.config.CheckSpec;
import dev.sluice.config.Expectation;
import dev.sluice.config.Metric;
import dev.sluice.config.QuantileRanges;
import dev.sluice.config.Severity;
import dev.sluice.config.StrftimeFormats;
import dev.sluice.quality.InvalidCheckException;
import java.util.List;
import java.util.function.DoublePredicate;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.jspecify.annotations.Nullable;

/**
 * How one declared check is computed: the Deequ {@link Check} that measures and judges it (null
 * for schema and freshness checks, judged from the schema or one aggregate), and for a map check
 * the SQL predicate of an unexpected value (over non-null values, GE's semantics) for the sample.
 *
 * <p>Mapping (GE name → Deequ): not_be_null → {@code hasCompleteness ≥ mostly}; be_null →
 * {@code hasCompleteness ≤ 1 − mostly}; be_unique → {@code hasUniqueness} (Deequ counts values
 * occurring once among non-null rows, which is GE's rule); in_set, be_between, match_regex,
 * match_strftime_format → {@code satisfies(predicate).where(column IS NOT NULL)} (GE ignores
 * NULLs in these; so do not_be_in_set, not_match_regex, match_regex_list and the value lengths);
 * mean/min/max/sum → {@code hasMean/hasMin/hasMax/hasSum} (min/max of a date, timestamp or string:
 * no Deequ check, {@link Extremes}); stdev → {@code hasStandardDeviation}, judged as the sample
 * deviation by {@link CheckJudge}; row count → {@code hasSize}; compound unique →
 * {@code hasUniqueness(columns) ≥ mostly}; anomaly metrics → {@code hasSize},
 * {@link DeequMetrics} (always holding; the anomaly strategy judges), as are metric checks (their bounds asserted).
 *
 * @param spec the declared check
 * @param deequ the Deequ check with exactly one constraint, or null
 * @param unexpected for a map check, the SQL condition of a row whose value is unexpected; else null
 * @param threshold the requirement as text
 */
record CheckPlan(CheckSpec spec, @Nullable Check deequ, @Nullable String unexpected, String threshold) {

    /**
     * @throws InvalidCheckException when the check cannot be evaluated on data of {@code schema}
     */
    static CheckPlan of(CheckSpec spec, StructType schema) {
        Expectation e = spec.expectation();
        String name = spec.id();
        Check check = new Check(spec.severity() == Severity.ERROR ? CheckLevel$.MODULE$.Error() : CheckLevel$.MODULE$.Warning(),
                name, Scala.seq(List.of()));
        String col = spec.column();
        if (col == null && e.needsColumn()) {
            throw new InvalidCheckException(name + ": " + e.id() + " needs a column");
        }
        DataType type = null;
        if (col != null && e.kind() != Expectation.Kind.SCHEMA) {
            type = field(schema, col, spec).dataType();
        }
        if (spec.mostly() != null && (spec.mostly() < 0 || spec.mostly() > 1)) {
            // GE: "mostly parameter value must be between 0 and 1"
            throw new InvalidCheckException(name + ": mostly must be within [0, 1], was " + spec.mostly());
        }
        double mostly = spec.mostlyOrAll();
        String q = col == null ? null : SparkSql.identifier(col);
        String notNull = q + " IS NOT NULL";
        String mostlyText = mostly < 1 ? ">= " + mostly + " of values " : "every value ";
        return switch (e) {
            case EXPECT_COLUMN_VALUES_TO_NOT_BE_NULL -> new CheckPlan(spec,
                    check.hasCompleteness(col, Scala.onDouble(c -> c >= mostly), Scala.none(), Scala.none()),
                    q + " IS NULL", mostlyText + "not null");
            case EXPECT_COLUMN_VALUES_TO_BE_NULL -> new CheckPlan(spec,
                    check.hasCompleteness(col, Scala.onDouble(c -> 1 - c >= mostly - 1e-12), Scala.none(), Scala.none()),
                    notNull, mostlyText + "null");
            case EXPECT_COLUMN_VALUES_TO_BE_UNIQUE -> new CheckPlan(spec,
                    check.hasUniqueness(col, Scala.onDouble(u -> u >= mostly), Scala.none(), Scala.none()),
                    null, mostlyText + "unique (NULLs ignored)");
            case EXPECT_COLUMN_VALUES_TO_BE_IN_SET -> {
                // a NULL in the set matches no value: NULLs are judged by null_values alone (GE's pandas and SQL backends)
                String set = SparkSql.list(spec.list("value_set").stream().filter(java.util.Objects::nonNull).toList(), type);
                yield compliance(spec, check, set.isEmpty() ? "FALSE" : q + " IN (" + set + ")", mostlyText + "in {" + set + "}");
            }
            case EXPECT_COLUMN_VALUES_TO_BE_BETWEEN -> {
                Bounds b = Bounds.of(spec);
                StringBuilder p = new StringBuilder("TRUE");
                if (b.min() != null) {
                    p.append(" AND ").append(q).append(b.strictMin() ? " > " : " >= ").append(SparkSql.literal(b.min(), type));
                }
                if (b.max() != null) {
                    p.append(" AND ").append(q).append(b.strictMax() ? " < " : " <= ").append(SparkSql.literal(b.max(), type));
                }
                yield compliance(spec, check, p.toString(), mostlyText + "in " + b);
            }
            case EXPECT_COLUMN_VALUES_TO_MATCH_REGEX -> {
                String regex = spec.param("regex").orElseThrow().toString();
                yield compliance(spec, check, "CAST(" + q + " AS STRING) RLIKE " + SparkSql.string(regex),
                        mostlyText + "matching /" + regex + "/");
            }
            case EXPECT_COLUMN_VALUES_TO_NOT_BE_IN_SET -> {
                String set = SparkSql.list(spec.list("value_set").stream().filter(java.util.Objects::nonNull).toList(), type);
                yield compliance(spec, check, set.isEmpty() ? "TRUE" : "NOT (" + q + " IN (" + set + "))", mostlyText + "not in {" + set + "}");
            }
            case EXPECT_COLUMN_VALUES_TO_NOT_MATCH_REGEX -> {
                String regex = spec.param("regex").orElseThrow().toString();
                yield compliance(spec, check, "NOT (CAST(" + q + " AS STRING) RLIKE " + SparkSql.string(regex) + ")",
                        mostlyText + "not matching /" + regex + "/");
            }
            case EXPECT_COLUMN_VALUES_TO_MATCH_REGEX_LIST -> {
                List<String> regexes = spec.list("regex_list").stream().map(String::valueOf).toList();
                String on = spec.param("match_on").map(Object::toString).orElse("any");
                if (regexes.isEmpty() || !on.equals("any") && !on.equals("all")) {
                    throw new InvalidCheckException(name + ": regex_list needs at least one pattern and match_on is any or all, was " + on);
                }
                String joined = String.join(on.equals("any") ? " OR " : " AND ",
                        regexes.stream().map(r -> "CAST(" + q + " AS STRING) RLIKE " + SparkSql.string(r)).toList());
                yield compliance(spec, check, "(" + joined + ")", mostlyText + "matching " + on + " of " + regexes);
            }
            case EXPECT_COLUMN_VALUE_LENGTHS_TO_BE_BETWEEN, EXPECT_COLUMN_VALUE_LENGTHS_TO_EQUAL -> {
                if (!(type instanceof StringType)) {
                    throw new InvalidCheckException(name + ": " + e.id() + " measures text: it needs a string column; " + col + " is "
                            + type.simpleString());
                }
                Object min = e == Expectation.EXPECT_COLUMN_VALUE_LENGTHS_TO_EQUAL ? spec.param("value").orElse(null) : spec.param("min_value").orElse(null);
                Object max = e == Expectation.EXPECT_COLUMN_VALUE_LENGTHS_TO_EQUAL ? min : spec.param("max_value").orElse(null);
                if (min == null && max == null) {
                    throw new InvalidCheckException(name + ": min_value and max_value cannot both be None");
                }
                // min above max is not an error here (GE judges every value unexpected)
                Long lo = wholeLength(min, name);
                Long hi = wholeLength(max, name);
                String length = "char_length(" + q + ")";
                String pass = "TRUE" + (lo == null ? "" : " AND " + length + " >= " + lo) + (hi == null ? "" : " AND " + length + " <= " + hi);
                yield compliance(spec, check, pass, mostlyText + "of length " + (lo != null && lo.equals(hi) ? lo
                        : "in [" + (lo == null ? "0" : lo) + ", " + (hi == null ? "∞)" : hi + "]")));
            }
            case EXPECT_COLUMN_VALUES_TO_MATCH_STRFTIME_FORMAT -> {
                if (!(type instanceof StringType)) {
                    // GE raises on a column that is not of strings (a date is not judged by its text)
                    throw new InvalidCheckException(name + ": " + e.id() + " needs a string column; " + col + " is " + type.simpleString());
                }
                String format = spec.param("strftime_format").orElseThrow().toString();
                try {
                    StrftimeFormats.formatter(format);
                } catch (IllegalArgumentException x) {
                    throw new InvalidCheckException(name + ": " + x.getMessage());
                }
                yield compliance(spec, check, StrftimeFormat.UDF + "(CAST(" + q + " AS STRING), " + SparkSql.string(format) + ")",
                        mostlyText + "of strftime format " + format);
            }
            case EXPECT_COLUMN_MEAN_TO_BE_BETWEEN, EXPECT_COLUMN_MIN_TO_BE_BETWEEN, EXPECT_COLUMN_MAX_TO_BE_BETWEEN,
                    EXPECT_COLUMN_SUM_TO_BE_BETWEEN, EXPECT_COLUMN_STDEV_TO_BE_BETWEEN -> {
                if ((e == Expectation.EXPECT_COLUMN_MIN_TO_BE_BETWEEN || e == Expectation.EXPECT_COLUMN_MAX_TO_BE_BETWEEN)
                        && Extremes.comparable(type)) {
                    // a date, timestamp or string: its least or greatest value (Deequ's Minimum/Maximum are numeric)
                    yield new CheckPlan(spec, null, null, e.id().replace("expect_column_", "").replace("_to_be_between", "") + " in " + Bounds.of(spec));
                }
                if (!(type instanceof NumericType)) {
                    throw new InvalidCheckException(name + ": " + e.id() + " needs a numeric column; " + col + " is " + type.simpleString());
                }
                Bounds b = Bounds.of(spec);
                DoublePredicate in = b::contains;
                Check c = switch (e) {
                    case EXPECT_COLUMN_MEAN_TO_BE_BETWEEN -> check.hasMean(col, Scala.onDouble(in::test), Scala.none());
                    case EXPECT_COLUMN_SUM_TO_BE_BETWEEN -> check.hasSum(col, Scala.onDouble(in::test), Scala.none());
                    // measured here, judged by CheckJudge: the sample deviation needs the non-null count too
                    case EXPECT_COLUMN_STDEV_TO_BE_BETWEEN -> check.hasStandardDeviation(col, Scala.onDouble(v -> true), Scala.none());
                    case EXPECT_COLUMN_MIN_TO_BE_BETWEEN -> check.hasMin(col, Scala.onDouble(in::test), Scala.none(), Scala.none());
                    default -> check.hasMax(col, Scala.onDouble(in::test), Scala.none(), Scala.none());
                };
                yield new CheckPlan(spec, c, null, e.id().replace("expect_column_", "").replace("_to_be_between", "") + " in " + b);
            }
            case EXPECT_TABLE_ROW_COUNT_TO_EQUAL -> {
                long n = wholeLength(spec.param("value").orElseThrow(() -> new InvalidCheckException(name + ": value is required")), name);
                yield new CheckPlan(spec, check.hasSize(Scala.onLong(x -> x == n), Scala.none()), null, "row count " + n);
            }
            case EXPECT_TABLE_ROW_COUNT_TO_BE_BETWEEN -> {
                Bounds b = Bounds.of(spec);
                yield new CheckPlan(spec, check.hasSize(Scala.onLong(n -> b.contains(n)), Scala.none()), null, "row count in " + b);
            }
            case EXPECT_COMPOUND_COLUMNS_TO_BE_UNIQUE -> {
                List<String> cols = spec.list("column_list").stream().map(Object::toString).toList();
                cols.forEach(c -> field(schema, c, spec));
                yield new CheckPlan(spec, check.hasUniqueness(Scala.seq(cols), Scala.onDouble(u -> u >= mostly - 1e-12), Scala.none()),
                        null, (mostly < 1 ? ">= " + mostly + " of rows' " : "") + "(" + String.join(", ", cols) + ") unique");
            }
            case EXPECT_METRIC_TO_NOT_BE_ANOMALOUS -> new CheckPlan(spec, DeequMetrics.measuring(check, spec, metric(spec)), null,
                    AnomalyJudge.describe(spec));
            case EXPECT_METRIC_TO_BE_BETWEEN -> {
                Bounds b = Bounds.of(spec);
                Metric m = metric(spec);
                yield new CheckPlan(spec, DeequMetrics.measuring(check, spec, m, Scala.onDouble(b::contains)), null,
                        m.id() + (col == null ? "" : " of " + col) + " in " + b);
            }
            case EXPECT_COLUMN_UNIQUE_VALUE_COUNT_TO_BE_BETWEEN, EXPECT_COLUMN_PROPORTION_OF_UNIQUE_VALUES_TO_BE_BETWEEN -> {
                Bounds b = Bounds.of(spec);
                boolean count = e == Expectation.EXPECT_COLUMN_UNIQUE_VALUE_COUNT_TO_BE_BETWEEN;
                yield new CheckPlan(spec, DeequMetrics.measuring(check, spec, count ? Metric.COUNT_DISTINCT : Metric.DISTINCTNESS,
                        Scala.onDouble(b::contains)), null, (count ? "distinct values in " : "distinct values over values in ") + b);
            }
            case EXPECT_COLUMN_MEDIAN_TO_BE_BETWEEN -> {
                if (!(type instanceof NumericType)) {
                    throw new InvalidCheckException(name + ": " + e.id() + " needs a numeric column; " + col + " is " + type.simpleString());
                }
                Bounds b = Bounds.of(spec);
                yield new CheckPlan(spec, check.hasExactQuantile(col, 0.5, Scala.onDouble(b::contains), Scala.none()), null, "median in " + b);
            }
            case EXPECT_COLUMN_QUANTILE_VALUES_TO_BE_BETWEEN -> {
                if (!(type instanceof NumericType)) {
                    throw new InvalidCheckException(name + ": " + e.id() + " needs a numeric column; " + col + " is " + type.simpleString());
                }
                QuantileRanges r = quantileRanges(spec);
                relativeError(spec);
                yield new CheckPlan(spec, null, null, "quantiles " + r.quantiles() + " in " + r.ranges());
            }
            case EXPECT_COLUMN_DISTINCT_VALUES_TO_BE_IN_SET -> new CheckPlan(spec, null, null,
                    "distinct values within {" + setText(spec) + "}");
            case EXPECT_COLUMN_DISTINCT_VALUES_TO_CONTAIN_SET -> new CheckPlan(spec, null, null,
                    "distinct values include {" + setText(spec) + "}");
            case EXPECT_COLUMN_DISTINCT_VALUES_TO_EQUAL_SET -> new CheckPlan(spec, null, null,
                    "distinct values exactly {" + setText(spec) + "}");
            case EXPECT_COLUMN_MOST_COMMON_VALUE_TO_BE_IN_SET -> new CheckPlan(spec, null, null,
                    "most common value in {" + setText(spec) + "}" + (spec.flag("ties_okay") ? " (ties okay)" : ""));
            case EXPECT_COLUMN_PAIR_VALUES_TO_BE_EQUAL, EXPECT_COLUMN_PAIR_VALUES_A_TO_BE_GREATER_THAN_B, EXPECT_COLUMN_PAIR_VALUES_TO_BE_IN_SET,
                    EXPECT_MULTICOLUMN_SUM_TO_EQUAL, EXPECT_SELECT_COLUMN_VALUES_TO_BE_UNIQUE_WITHIN_RECORD -> {
                String pass = RowChecks.passing(spec, schema);
                String judged = RowChecks.judged(spec);
                Check c = check.satisfies(pass, spec.id(), Scala.onDouble(f -> f >= mostly), Scala.none(), Scala.nil(), Scala.none())
                        .where(judged);
                String rows = mostly < 1 ? ">= " + mostly + " of rows: " : "every row: ";
                yield new CheckPlan(spec, c, judged + " AND NOT " + pass, rows + rowText(spec));
            }
            case EXPECT_COLUMN_TO_EXIST -> new CheckPlan(spec, null, null, "column " + col + " exists");
            case EXPECT_TABLE_COLUMNS_TO_MATCH_ORDERED_LIST -> new CheckPlan(spec, null, null, "columns " + spec.list("column_list"));
            case EXPECT_TABLE_COLUMNS_TO_MATCH_SET -> new CheckPlan(spec, null, null,
                    (spec.param("exact_match").map(v -> !"false".equals(v.toString())).orElse(true) ? "columns exactly " : "columns include ")
                            + spec.list("column_set"));
            case EXPECT_TABLE_COLUMN_COUNT_TO_EQUAL -> {
                long n = wholeLength(spec.param("value").orElseThrow(() -> new InvalidCheckException(name + ": value is required")), name);
                yield new CheckPlan(spec, null, null, n + " column(s)");
            }
            case EXPECT_TABLE_COLUMN_COUNT_TO_BE_BETWEEN -> {
                wholeLength(spec.param("min_value").orElse(null), name);
                wholeLength(spec.param("max_value").orElse(null), name);
                yield new CheckPlan(spec, null, null, "column count in " + Bounds.of(spec));
            }
            case EXPECT_PARTITION_TO_BE_FRESH -> new CheckPlan(spec, null, null,
                    "newest " + col + " at most " + spec.maxLag().orElseThrow() + " before the partition's end");
            case EXPECT_COLUMN_VALUES_TO_BE_IN_PARTITION -> {
                if (!Extremes.comparable(type) || type instanceof StringType) {
                    throw new InvalidCheckException(name + ": " + e.id() + " needs a date or timestamp column; " + col + " is "
                            + (type == null ? "missing" : type.simpleString()));
                }
                yield new CheckPlan(spec, null, null, "every " + col + " within the partition's nominal interval");
            }
        };
    }

    /**
     * The key of the aggregate this plan is judged by ({@link OwnAggregates}): the newest value of
     * a freshness column, the least or greatest of a non-numeric column ({@link Extremes#key}), a
     * column's quantiles; null for other plans.
     */
    @Nullable String aggregateKey() {
        Expectation e = spec.expectation();
        if (e == Expectation.EXPECT_COLUMN_QUANTILE_VALUES_TO_BE_BETWEEN) {
            return OwnAggregates.quantilesKey(spec.column(), quantileRanges(spec).quantiles(), relativeError(spec));
        }
        if (e == Expectation.EXPECT_PARTITION_TO_BE_FRESH) {
            return Extremes.key(true, spec.column());
        }
        if (deequ == null && (e == Expectation.EXPECT_COLUMN_MIN_TO_BE_BETWEEN || e == Expectation.EXPECT_COLUMN_MAX_TO_BE_BETWEEN)) {
            return Extremes.key(e == Expectation.EXPECT_COLUMN_MAX_TO_BE_BETWEEN, spec.column());
        }
        return null;
    }

    /** Every aggregate this plan is judged by: {@link #aggregateKey()}, or the least and greatest value of an in-partition check. */
    List<String> aggregateKeys() {
        if (spec.expectation() == Expectation.EXPECT_COLUMN_VALUES_TO_BE_IN_PARTITION) {
            return List.of(Extremes.key(false, spec.column()), Extremes.key(true, spec.column()));
        }
        String key = aggregateKey();
        return key == null ? List.of() : List.of(key);
    }

    /** {@code quantile_ranges} of a quantile check. */
    static QuantileRanges quantileRanges(CheckSpec spec) {
        try {
            return QuantileRanges.parse(spec.param("quantile_ranges").orElse(null));
        } catch (IllegalArgumentException x) {
            throw new InvalidCheckException(spec.id() + ": " + x.getMessage());
        }
    }

    /**
     * {@code allow_relative_error}: absent or false is 0 (exact), true Deequ's default
     * {@value DeequMetrics#QUANTILE_ERROR}, a number that relative rank error in [0, 1).
     */
    private static double relativeError(CheckSpec spec) {
        String v = spec.param("allow_relative_error").map(Object::toString).orElse("false");
        if (v.equals("false")) {
            return 0;
        }
        if (v.equals("true")) {
            return DeequMetrics.QUANTILE_ERROR;
        }
        try {
            double d = Double.parseDouble(v);
            if (d >= 0 && d < 1) {
                return d;
            }
        } catch (NumberFormatException ignored) {
            // named below
        }
        throw new InvalidCheckException(spec.id() + ": allow_relative_error must be false, true or a relative error in [0, 1), was " + v);
    }

    private static String rowText(CheckSpec spec) {
        List<String> c = Expectation.rowColumns(spec);
        return switch (spec.expectation()) {
            case EXPECT_COLUMN_PAIR_VALUES_TO_BE_EQUAL -> c.get(0) + " = " + c.get(1);
            case EXPECT_COLUMN_PAIR_VALUES_A_TO_BE_GREATER_THAN_B -> c.get(0) + (spec.flag("or_equal") ? " >= " : " > ") + c.get(1);
            case EXPECT_COLUMN_PAIR_VALUES_TO_BE_IN_SET -> "(" + String.join(", ", c) + ") in " + spec.list("value_pairs_set");
            case EXPECT_MULTICOLUMN_SUM_TO_EQUAL -> String.join(" + ", c) + " = " + spec.param("sum_total").orElse("?");
            default -> String.join(", ", c) + " differ within the row";
        };
    }

    private static String setText(CheckSpec spec) {
        return String.join(", ", spec.list("value_set").stream().map(String::valueOf).toList());
    }

    private static CheckPlan compliance(CheckSpec spec, Check check, String pass, String threshold) {
        String q = SparkSql.identifier(spec.column());
        double mostly = spec.mostlyOrAll();
        if (Expectation.nullsUnexpected(spec)) {
            String strict = q + " IS NOT NULL AND COALESCE(" + pass + ", FALSE)";
            Check c = check.satisfies(strict, spec.id(), Scala.onDouble(f -> f >= mostly), Scala.none(), Scala.nil(), Scala.none());
            return new CheckPlan(spec, c, "NOT (" + strict + ")", threshold + " (NULL is unexpected)");
        }
        Check c = check.satisfies(pass, spec.id(), Scala.onDouble(f -> f >= mostly), Scala.none(), Scala.nil(), Scala.none())
                .where(q + " IS NOT NULL");
        return new CheckPlan(spec, c, q + " IS NOT NULL AND NOT COALESCE(" + pass + ", FALSE)", threshold);
    }

    private static Metric metric(CheckSpec spec) {
        String m = spec.param("metric").map(Object::toString).orElse("row_count");
        return Metric.parse(m).orElseThrow(() -> new InvalidCheckException(spec.id() + ": metric " + m + " is not one of " + Metric.names()));
    }

    /** A bound that must be a whole number (a length, a count), or null when absent. */
    private static @Nullable Long wholeLength(@Nullable Object v, String checkId) {
        if (v == null) {
            return null;
        }
        String t = v.toString().strip();
        try {
            double d = Double.parseDouble(t);
            if (d == Math.rint(d) && d >= 0 && !(v instanceof Boolean)) {
                return (long) d;
            }
        } catch (NumberFormatException ignored) {
            // named below
        }
        throw new InvalidCheckException(checkId + ": " + v + " is not a whole number (a length or a count)");
    }

    static StructField field(StructType schema, String column, CheckSpec spec) {
        for (StructField f : schema.fields()) {
            if (f.name().equalsIgnoreCase(column)) {
                return f;
            }
        }
        throw new InvalidCheckException(spec.id() + ": the data has no column " + column);
    }
}
