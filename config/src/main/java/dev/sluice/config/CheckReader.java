package dev.sluice.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Reads {@code checks:} of a layer table, reporting every problem with its key path:
 * <pre>
 * checks:
 *   - {id: delay_plausible, expect: expect_column_values_to_be_between, column: delay_min,
 *      min_value: -120, max_value: 1440, mostly: 0.999, severity: warn}
 * </pre>
 * Keys: {@code id}, {@code expect} (an {@link Expectation} name), {@code severity} ({@code error}
 * default, or {@code warn}), {@code mostly} (map checks and the compound uniqueness), {@code column}, {@code description},
 * {@code no_data} ({@code block} or {@code allow}: what an outcome with nothing to judge does, see
 * {@link CheckSpec#noDataBlocks()}; not for schema and freshness checks, which always have data), and
 * the expectation's own parameters. Thread-safe (stateless).
 */
final class CheckReader {

    private static final Set<String> COMMON = Set.of("id", "expect", "severity", "mostly", "column", "description", "no_data");
    private static final Set<String> LISTS = Set.of("value_set", "column_list", "column_set", "regex_list");
    private static final List<String> PAIR_IGNORE = List.of("both_values_are_missing", "either_value_is_missing", "neither");
    private static final List<String> LIST_IGNORE = List.of("all_values_are_missing", "any_value_is_missing", "never");
    private static final Set<String> STRATEGIES = Set.of("relative_rate_of_change", "online_normal");

    private CheckReader() {
    }

    /**
     * @param columns the columns the table has (business and metadata) and their types, for
     *     checking {@code column}, {@code column_list} and literals
     */
    static List<CheckSpec> checks(YamlCursor table, Map<String, ColumnType> columns) {
        return checks(table, columns, true);
    }

    /**
     * @param columns the columns the table has (business and metadata) and their types, for
     *     checking {@code column}, {@code column_list} and literals
     * @param columnsKnown false when the table's columns cannot be known because of a problem
     *     already reported (its source's contract is missing or invalid): column names are then not
     *     judged, so that one cause is reported once
     */
    static List<CheckSpec> checks(YamlCursor table, Map<String, ColumnType> columns, boolean columnsKnown) {
        List<CheckSpec> out = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (YamlCursor c : table.list("checks", false)) {
            Optional<String> id = c.text("id", true);
            id.filter(i -> !ContractLoader.IDENTIFIER.matcher(i).matches())
                    .ifPresent(i -> c.problem("id", i, "a check id is a lower-case identifier [a-z][a-z0-9_]*"));
            id.filter(i -> !ids.add(i)).ifPresent(i -> c.problem("id", i, "duplicate check id in this table"));
            Optional<Expectation> expect = c.text("expect", true).flatMap(e -> {
                Optional<Expectation> parsed = Expectation.parse(e);
                if (parsed.isEmpty()) {
                    c.problem("expect", e, "unknown expectation; one of " + names());
                }
                return parsed;
            });
            Severity severity = c.text("severity", false).map(s -> Severity.parse(s).orElseGet(() -> {
                c.problem("severity", s, "error or warn");
                return Severity.ERROR;
            })).orElse(Severity.ERROR);
            if (expect.isEmpty()) {
                continue;
            }
            Expectation e = expect.get();
            Set<String> allowed = new HashSet<>(COMMON);
            allowed.addAll(e.parameters());
            c.allowOnly(allowed);
            Double mostly = c.text("mostly", false).map(m -> fraction(c, m)).orElse(null);
            if (mostly != null && !e.takesMostly()) {
                c.problem("mostly", mostly.toString(), "mostly applies to column-value checks and expect_compound_columns_to_be_unique ("
                        + e.id() + " judges an aggregate)");
            }
            NoDataPolicy noData = c.text("no_data", false).map(t -> NoDataPolicy.parse(t).orElseGet(() -> {
                c.problem("no_data", t, "block or allow");
                return null;
            })).orElse(null);
            if (noData != null && (e.kind() == Expectation.Kind.SCHEMA || e.kind() == Expectation.Kind.FRESHNESS)) {
                c.problem("no_data", noData.id(), e.id() + " always has data to judge (columns, or the newest value: nothing arrived"
                        + " fails a freshness check); no_data applies to value, aggregate, metric and anomaly checks");
            }
            Optional<String> column = c.text("column", e.needsColumn());
            column.filter(col -> columnsKnown && !columns.containsKey(col))
                    .ifPresent(col -> c.problem("column", col, "not a column of this table; it has " + String.join(", ", columns.keySet())));
            Map<String, Object> params = new LinkedHashMap<>();
            for (String p : e.parameters()) {
                if (p.equals("value_pairs_set")) {
                    List<Object> pairs = new ArrayList<>();
                    for (YamlCursor pair : c.list(p, false)) {
                        List<Object> values = new ArrayList<>();
                        pair.items().forEach(v -> values.add(v.isNullValue() ? null : v.scalar().orElse(null)));
                        if (values.size() != 2) {
                            pair.problemHere(values.toString(), "a pair [value of column_A, value of column_B]");
                        }
                        pairs.add(values);
                    }
                    if (c.has(p)) {
                        params.put(p, pairs);
                    }
                } else if (p.equals("quantile_ranges")) {
                    c.map(p, true).ifPresent(r -> quantileRanges(c, r).ifPresent(v -> params.put(p, v)));
                } else if (LISTS.contains(p)) {
                    if (c.has(p)) {
                        List<Object> values = new ArrayList<>();
                        c.list(p, false).forEach(v -> v.scalar().ifPresent(values::add));
                        params.put(p, values);
                    }
                } else {
                    c.text(p, false).ifPresent(v -> params.put(p, v));
                }
            }
            checkParams(c, e, params, column);
            checkTypes(c, e, params, column.map(columns::get).orElse(null), columnsKnown ? columns : null);
            if (id.isPresent()) {
                out.add(new CheckSpec(id.get(), e, severity, mostly, column.orElse(null), params, noData));
            }
        }
        return out;
    }

    private static void checkParams(YamlCursor c, Expectation e, Map<String, Object> params, Optional<String> column) {
        switch (e) {
            case EXPECT_COLUMN_VALUES_TO_BE_IN_SET -> require(c, params, "value_set");
            case EXPECT_COLUMN_VALUES_TO_NOT_BE_IN_SET -> require(c, params, "value_set");
            case EXPECT_COLUMN_VALUES_TO_MATCH_REGEX_LIST -> {
                require(c, params, "regex_list").ifPresent(l -> ((List<?>) l).forEach(r -> regex(c, "regex_list", String.valueOf(r))));
                Optional.ofNullable(params.get("match_on")).map(Object::toString).filter(v -> !v.equals("any") && !v.equals("all"))
                        .ifPresent(v -> c.problem("match_on", v, "any (one pattern matches, the default) or all"));
            }
            case EXPECT_TABLE_COLUMNS_TO_MATCH_SET -> require(c, params, "column_set");
            case EXPECT_COLUMN_PAIR_VALUES_TO_BE_EQUAL, EXPECT_COLUMN_PAIR_VALUES_A_TO_BE_GREATER_THAN_B, EXPECT_COLUMN_PAIR_VALUES_TO_BE_IN_SET -> {
                require(c, params, "column_A");
                require(c, params, "column_B");
                if (e == Expectation.EXPECT_COLUMN_PAIR_VALUES_TO_BE_IN_SET) {
                    require(c, params, "value_pairs_set");
                }
                Optional.ofNullable(params.get("ignore_row_if")).map(Object::toString).filter(v -> !PAIR_IGNORE.contains(v))
                        .ifPresent(v -> c.problem("ignore_row_if", v, "one of " + String.join(", ", PAIR_IGNORE)));
                Optional.ofNullable(params.get("or_equal")).map(Object::toString).filter(v -> !v.equals("true") && !v.equals("false"))
                        .ifPresent(v -> c.problem("or_equal", v, "true or false"));
            }
            case EXPECT_MULTICOLUMN_SUM_TO_EQUAL, EXPECT_SELECT_COLUMN_VALUES_TO_BE_UNIQUE_WITHIN_RECORD -> {
                require(c, params, "column_list");
                if (e == Expectation.EXPECT_MULTICOLUMN_SUM_TO_EQUAL) {
                    require(c, params, "sum_total").map(Object::toString).filter(v -> !isNumber(v))
                            .ifPresent(v -> c.problem("sum_total", v, "a number"));
                }
                Optional.ofNullable(params.get("ignore_row_if")).map(Object::toString).filter(v -> !LIST_IGNORE.contains(v))
                        .ifPresent(v -> c.problem("ignore_row_if", v, "one of " + String.join(", ", LIST_IGNORE)));
            }
            case EXPECT_COLUMN_DISTINCT_VALUES_TO_CONTAIN_SET, EXPECT_COLUMN_DISTINCT_VALUES_TO_EQUAL_SET,
                    EXPECT_COLUMN_MOST_COMMON_VALUE_TO_BE_IN_SET -> require(c, params, "value_set");
            case EXPECT_COLUMN_QUANTILE_VALUES_TO_BE_BETWEEN -> Optional.ofNullable(params.get("allow_relative_error"))
                    .map(Object::toString).filter(v -> !v.equals("true") && !v.equals("false") && !(isNumber(v) && Double.parseDouble(v) >= 0
                            && Double.parseDouble(v) < 1))
                    .ifPresent(v -> c.problem("allow_relative_error", v, "false (exact, the default), true (Deequ's 0.01) or a relative"
                            + " rank error in [0, 1)"));
            case EXPECT_TABLE_ROW_COUNT_TO_EQUAL, EXPECT_TABLE_COLUMN_COUNT_TO_EQUAL, EXPECT_COLUMN_VALUE_LENGTHS_TO_EQUAL ->
                    require(c, params, "value").map(Object::toString).filter(v -> !v.matches("\\d+"))
                            .ifPresent(v -> c.problem("value", v, "a whole number"));
            case EXPECT_COLUMN_VALUES_TO_NOT_MATCH_REGEX -> require(c, params, "regex").ifPresent(r -> regex(c, "regex", r.toString()));
            case EXPECT_COLUMN_VALUES_TO_MATCH_REGEX -> require(c, params, "regex").ifPresent(r -> {
                try {
                    Pattern.compile(r.toString());
                } catch (PatternSyntaxException x) {
                    c.problem("regex", r.toString(), "not a valid regular expression: " + x.getDescription());
                }
            });
            case EXPECT_COLUMN_VALUES_TO_MATCH_STRFTIME_FORMAT -> require(c, params, "strftime_format").ifPresent(f -> {
                try {
                    StrftimeFormats.formatter(f.toString());
                } catch (IllegalArgumentException x) {
                    c.problem("strftime_format", f.toString(), x.getMessage());
                }
            });
            case EXPECT_COMPOUND_COLUMNS_TO_BE_UNIQUE, EXPECT_TABLE_COLUMNS_TO_MATCH_ORDERED_LIST -> require(c, params, "column_list");
            case EXPECT_COLUMN_TO_EXIST -> Optional.ofNullable(params.get("column_index")).map(Object::toString)
                    .filter(v -> !v.matches("\\d+"))
                    .ifPresent(v -> c.problem("column_index", v, "a position counted from 0 (metadata columns not counted)"));
            case EXPECT_PARTITION_TO_BE_FRESH -> require(c, params, "max_lag").ifPresent(v -> {
                try {
                    Duration.parse(v.toString());
                } catch (DateTimeParseException x) {
                    c.problem("max_lag", v.toString(), "an ISO-8601 duration, e.g. PT6H");
                }
            });
            case EXPECT_METRIC_TO_BE_BETWEEN -> metric(c, params, column);
            case EXPECT_METRIC_TO_NOT_BE_ANOMALOUS -> {
                metric(c, params, column);
                Object strategy = params.getOrDefault("strategy", "relative_rate_of_change");
                if (!STRATEGIES.contains(strategy.toString())) {
                    c.problem("strategy", strategy.toString(), "one of relative_rate_of_change, online_normal");
                }
                for (String n : List.of("max_rate_decrease", "max_rate_increase", "stddevs", "min_history")) {
                    Optional.ofNullable(params.get(n)).filter(v -> isNumber(v.toString()) && Double.parseDouble(v.toString()) <= 0)
                            .ifPresent(v -> c.problem(n, v.toString(), "must be positive"));
                    Optional.ofNullable(params.get(n)).ifPresent(v -> number(c, n, v.toString()));
                }
                Object dec = params.get("max_rate_decrease");
                Object inc = params.get("max_rate_increase");
                if (dec != null && inc != null && isNumber(dec.toString()) && isNumber(inc.toString())
                        && Double.parseDouble(dec.toString()) >= Double.parseDouble(inc.toString())) {
                    c.problem("max_rate_increase", inc.toString(), "must be above max_rate_decrease " + dec
                            + " (they bound the value divided by the previous one, e.g. 0.5 and 2.0)");
                }
                Optional.ofNullable(params.get("min_history")).map(Object::toString).filter(v -> isNumber(v) && Double.parseDouble(v) % 1 != 0)
                        .ifPresent(v -> c.problem("min_history", v, "a whole number of partitions"));
            }
            default -> {
            }
        }
        Optional.ofNullable(params.get("null_values")).map(Object::toString).filter(v -> !v.equals("ignore") && !v.equals("unexpected"))
                .ifPresent(v -> c.problem("null_values", v, "ignore (NULLs are neither expected nor unexpected, the default) or unexpected"));
        boolean extreme = e == Expectation.EXPECT_COLUMN_MIN_TO_BE_BETWEEN || e == Expectation.EXPECT_COLUMN_MAX_TO_BE_BETWEEN;
        if (e.kind() != Expectation.Kind.MAP && e.kind() != Expectation.Kind.ROW && !extreme) {
            // an aggregate, a count or a metric is a number
            for (String bound : List.of("min_value", "max_value")) {
                Optional.ofNullable(params.get(bound)).map(Object::toString).filter(v -> !isNumber(v))
                        .ifPresent(v -> c.problem(bound, v, "a number"));
            }
        }
        if (e == Expectation.EXPECT_TABLE_COLUMN_COUNT_TO_BE_BETWEEN) {
            for (String bound : List.of("min_value", "max_value")) {
                Optional.ofNullable(params.get(bound)).map(Object::toString).filter(v -> isNumber(v) && !v.matches("\\d+"))
                        .ifPresent(v -> c.problem(bound, v, "a whole number of columns"));
            }
        }
        Optional.ofNullable(params.get("exact_match")).map(Object::toString).filter(v -> !v.equals("true") && !v.equals("false"))
                .ifPresent(v -> c.problem("exact_match", v, "true or false"));
        if (e.parameters().contains("min_value")) {
            Object min = params.get("min_value");
            Object max = params.get("max_value");
            if (min == null && max == null) {
                c.problem("min_value", "(missing)", "give min_value, max_value or both");
            }
            if (min != null && max != null && isNumber(min.toString()) && isNumber(max.toString())
                    && Double.parseDouble(min.toString()) > Double.parseDouble(max.toString())) {
                c.problem("max_value", max.toString(), "is below min_value " + min);
            }
        }
    }

    /**
     * Literals against the column's type, the column's type against the expectation, flags,
     * intervals; {@code columns} null when they cannot be known (names are not judged).
     */
    private static void checkTypes(YamlCursor c, Expectation e, Map<String, Object> params, ColumnType type,
            Map<String, ColumnType> columns) {
        for (String list : List.of("column_list")) {
            if (columns != null && params.get(list) instanceof List<?> cols) {
                cols.stream().map(Object::toString).filter(x -> !columns.containsKey(x))
                        .forEach(x -> c.problem(list, x, "not a column of this table; it has " + String.join(", ", columns.keySet())));
            }
        }
        for (String key : List.of("column_A", "column_B")) {
            Optional.ofNullable(params.get(key)).map(Object::toString).filter(x -> columns != null && !columns.containsKey(x))
                    .ifPresent(x -> c.problem(key, x, "not a column of this table; it has " + String.join(", ", columns.keySet())));
        }
        if (e.kind() == Expectation.Kind.ROW && columns != null) {
            rowTypes(c, e, params, columns);
        }
        Optional.ofNullable(params.get("ties_okay")).map(Object::toString).filter(v -> !v.equals("true") && !v.equals("false"))
                .ifPresent(v -> c.problem("ties_okay", v, "true or false"));
        for (String flag : List.of("strict_min", "strict_max")) {
            Optional.ofNullable(params.get(flag)).map(Object::toString).filter(v -> !v.equals("true") && !v.equals("false"))
                    .ifPresent(v -> c.problem(flag, v, "true or false"));
        }
        if (type == null) {
            return;
        }
        boolean numeric = type.isNumeric();
        boolean extreme = e == Expectation.EXPECT_COLUMN_MIN_TO_BE_BETWEEN || e == Expectation.EXPECT_COLUMN_MAX_TO_BE_BETWEEN;
        boolean ordered = type == ColumnType.DATE || type == ColumnType.TIMESTAMP || type == ColumnType.STRING;
        boolean anyType = e == Expectation.EXPECT_COLUMN_UNIQUE_VALUE_COUNT_TO_BE_BETWEEN
                || e == Expectation.EXPECT_COLUMN_PROPORTION_OF_UNIQUE_VALUES_TO_BE_BETWEEN || e.judgesDistinctValues();
        if (e.kind() == Expectation.Kind.AGGREGATE && !numeric && !(extreme && ordered) && !anyType) {
            c.problem("column", type.id(), e.id() + " needs a numeric column (int, long, float, double, decimal)"
                    + (extreme ? ", a date, a timestamp or a string" : ""));
        }
        if (e.kind() == Expectation.Kind.METRIC || e.kind() == Expectation.Kind.ANOMALY) {
            Metric.parse(String.valueOf(params.get("metric"))).ifPresent(m -> metricTypes(c, m, type, params, columns));
        }
        boolean lengths = e == Expectation.EXPECT_COLUMN_VALUE_LENGTHS_TO_BE_BETWEEN || e == Expectation.EXPECT_COLUMN_VALUE_LENGTHS_TO_EQUAL;
        if (lengths && type != ColumnType.STRING) {
            c.problem("column", type.id(), e.id() + " measures text: it needs a string column");
        }
        if (lengths) {
            for (String bound : List.of("min_value", "max_value")) {
                Optional.ofNullable(params.get(bound)).map(Object::toString).filter(v -> !v.matches("\\d+"))
                        .ifPresent(v -> c.problem(bound, v, "a length: a whole number of characters"));
            }
        }
        if (e == Expectation.EXPECT_COLUMN_VALUES_TO_MATCH_STRFTIME_FORMAT && type != ColumnType.STRING) {
            c.problem("column", type.id(), e.id() + " judges text: it needs a string column");
        }
        if (e == Expectation.EXPECT_PARTITION_TO_BE_FRESH && type != ColumnType.DATE && type != ColumnType.TIMESTAMP) {
            c.problem("column", type.id(), "freshness needs a date or timestamp column");
        }
        if (e == Expectation.EXPECT_COLUMN_VALUES_TO_BE_IN_PARTITION && type != ColumnType.DATE && type != ColumnType.TIMESTAMP) {
            c.problem("column", type.id(), e.id() + " compares values with the partition's interval: it needs a date or timestamp column");
        }
        if ((e.kind() == Expectation.Kind.MAP && !lengths) || extreme || e.judgesDistinctValues()) {
            for (String bound : List.of("min_value", "max_value")) {
                Optional.ofNullable(params.get(bound)).map(Object::toString).filter(v -> !type.acceptsLiteral(v))
                        .ifPresent(v -> c.problem(bound, v, "not " + type.withArticle() + " value (the column is " + type.id() + ")"));
            }
            if (params.get("value_set") instanceof List<?> values) {
                values.stream().map(String::valueOf).filter(v -> !type.acceptsLiteral(v))
                        .forEach(v -> c.problem("value_set", v, "not " + type.withArticle() + " value (the column is " + type.id() + ")"));
            }
        }
        Object min = params.get("min_value");
        Object max = params.get("max_value");
        if (min != null && max != null && min.toString().equals(max.toString())
                && ("true".equals(String.valueOf(params.get("strict_min"))) || "true".equals(String.valueOf(params.get("strict_max"))))) {
            c.problem("max_value", max.toString(), "a strict bound equal to the other one leaves no value allowed");
        }
    }

    /**
     * A row check's columns of types it can judge: a sum's numeric, a pair's (and a row's
     * distinctness) comparable with each other (numbers, dates with timestamps, else one type); a
     * pair set's values of their columns' types.
     */
    private static void rowTypes(YamlCursor c, Expectation e, Map<String, Object> params, Map<String, ColumnType> columns) {
        boolean pair = params.containsKey("column_A") || params.containsKey("column_B");
        List<String> names = pair ? java.util.stream.Stream.of(params.get("column_A"), params.get("column_B"))
                .filter(java.util.Objects::nonNull).map(Object::toString).toList()
                : params.get("column_list") instanceof List<?> l ? l.stream().map(Object::toString).toList() : List.of();
        List<String> known = names.stream().filter(columns::containsKey).toList();
        String key = pair ? "column_B" : "column_list";
        if (e == Expectation.EXPECT_MULTICOLUMN_SUM_TO_EQUAL) {
            known.stream().filter(n -> !columns.get(n).isNumeric())
                    .forEach(n -> c.problem(key, n, columns.get(n).id() + ": a sum needs numeric columns (int, long, float, double, decimal)"));
        } else if (e != Expectation.EXPECT_COLUMN_PAIR_VALUES_TO_BE_IN_SET && !known.isEmpty()) {
            String first = known.get(0);
            known.stream().filter(n -> !family(columns.get(n)).equals(family(columns.get(first))))
                    .forEach(n -> c.problem(key, n, columns.get(n).id() + " cannot be compared with " + first + " (" + columns.get(first).id()
                            + "): the columns need comparable types (numbers, dates and timestamps, or one type)"));
        }
        if (e == Expectation.EXPECT_COLUMN_PAIR_VALUES_TO_BE_IN_SET && known.size() == 2 && params.get("value_pairs_set") instanceof List<?> pairs) {
            for (Object p : pairs) {
                if (p instanceof List<?> two && two.size() == 2) {
                    for (int i = 0; i < 2; i++) {
                        ColumnType type = columns.get(known.get(i));
                        Object v = two.get(i);
                        if (v != null && !type.acceptsLiteral(v.toString())) {
                            c.problem("value_pairs_set", String.valueOf(v), "not " + type.withArticle() + " value (" + known.get(i) + " is " + type.id() + ")");
                        }
                    }
                }
            }
        }
    }

    private static String family(ColumnType t) {
        return t.isNumeric() ? "number" : t == ColumnType.DATE || t == ColumnType.TIMESTAMP ? "time" : t.id();
    }

    /** The metric's column of a type it can measure; {@code other_column} a column of the table. */
    private static void metricTypes(YamlCursor c, Metric m, ColumnType type, Map<String, Object> params, Map<String, ColumnType> columns) {
        boolean numeric = type.isNumeric();
        switch (m) {
            case MEAN, STDDEV, SUM, MINIMUM, MAXIMUM, APPROX_QUANTILE, EXACT_QUANTILE, CORRELATION -> {
                if (!numeric) {
                    c.problem("column", type.id(), "the " + m.id() + " needs a numeric column (int, long, float, double, decimal)");
                }
            }
            case MIN_LENGTH, MAX_LENGTH -> {
                if (type != ColumnType.STRING) {
                    c.problem("column", type.id(), "the " + m.id() + " measures text: it needs a string column");
                }
            }
            default -> {
            }
        }
        Object other = params.get("other_column");
        if (other != null && columns != null && !columns.containsKey(other.toString())) {
            c.problem("other_column", other.toString(), "not a column of this table; it has " + String.join(", ", columns.keySet()));
        }
    }

    /** {@code metric} names a {@link Metric} and what it needs is given. */
    private static void metric(YamlCursor c, Map<String, Object> params, Optional<String> column) {
        Optional<Metric> metric = require(c, params, "metric").flatMap(m -> {
            Optional<Metric> parsed = Metric.parse(m.toString());
            if (parsed.isEmpty()) {
                c.problem("metric", m.toString(), "one of " + Metric.names());
            }
            return parsed;
        });
        if (metric.isEmpty()) {
            return;
        }
        String of = "the " + metric.get().id() + " of which column?";
        switch (metric.get().needs()) {
            case NOTHING -> {
            }
            case COLUMN -> {
                if (column.isEmpty()) {
                    c.problem("column", "(missing)", of);
                }
            }
            case COLUMNS -> {
                if (column.isEmpty() && !params.containsKey("column_list")) {
                    c.problem("column", "(missing)", of + " (column, or column_list for several)");
                }
            }
            case TWO_COLUMNS -> {
                if (column.isEmpty() || !params.containsKey("other_column")) {
                    c.problem(column.isEmpty() ? "column" : "other_column", "(missing)", "the correlation of column with other_column");
                }
            }
            case QUANTILE -> {
                if (column.isEmpty()) {
                    c.problem("column", "(missing)", of);
                }
                Object q = params.get("quantile");
                if (q == null || !isNumber(q.toString()) || Double.parseDouble(q.toString()) < 0 || Double.parseDouble(q.toString()) > 1) {
                    c.problem("quantile", q == null ? "(missing)" : q.toString(), "a fraction in [0, 1], e.g. 0.5 for the median");
                }
            }
        }
    }

    private static void regex(YamlCursor c, String key, String regex) {
        try {
            Pattern.compile(regex);
        } catch (PatternSyntaxException x) {
            c.problem(key, regex, "not a valid regular expression: " + x.getDescription());
        }
    }

    /** {@code quantile_ranges}: a map of two lists as GE writes it, checked by {@link QuantileRanges#parse}. */
    private static Optional<Map<String, Object>> quantileRanges(YamlCursor check, YamlCursor ranges) {
        ranges.allowOnly(Set.of("quantiles", "value_ranges"));
        List<Object> quantiles = new ArrayList<>();
        ranges.list("quantiles", true).forEach(q -> q.scalar().ifPresent(quantiles::add));
        List<Object> valueRanges = new ArrayList<>();
        for (YamlCursor r : ranges.list("value_ranges", true)) {
            List<Object> pair = new ArrayList<>();
            for (YamlCursor side : r.items()) {
                pair.add(side.isNullValue() ? null : side.scalar().orElse(null));
            }
            valueRanges.add(pair);
        }
        if (!ranges.has("quantiles") || !ranges.has("value_ranges")) {
            return Optional.empty();   // reported as required
        }
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("quantiles", quantiles);
        value.put("value_ranges", valueRanges);
        try {
            QuantileRanges.parse(value);
            return Optional.of(value);
        } catch (IllegalArgumentException x) {
            check.problem("quantile_ranges", YamlCursor.abbreviate(value.toString()), x.getMessage());
            return Optional.empty();
        }
    }

    private static Optional<Object> require(YamlCursor c, Map<String, Object> params, String key) {
        Object v = params.get(key);
        if (v == null || v instanceof List<?> l && l.isEmpty()) {
            c.problem(key, "(missing)", "required by this expectation");
            return Optional.empty();
        }
        return Optional.of(v);
    }

    private static Double fraction(YamlCursor c, String text) {
        if (!isNumber(text) || Double.parseDouble(text) <= 0 || Double.parseDouble(text) > 1) {
            c.problem("mostly", text, "a fraction in (0, 1], e.g. 0.99");
            return null;
        }
        return Double.parseDouble(text);
    }

    private static void number(YamlCursor c, String key, String text) {
        if (!isNumber(text)) {
            c.problem(key, text, "a number");
        }
    }

    static boolean isNumber(String text) {
        try {
            return Double.isFinite(Double.parseDouble(text));
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static String names() {
        List<String> n = new ArrayList<>();
        for (Expectation e : Expectation.values()) {
            n.add(e.id());
        }
        return String.join(", ", n);
    }
}
