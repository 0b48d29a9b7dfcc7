package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.sluice.core.Layer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Quality check declarations: every mistake found by validate, none left for the gate to trip on. */
class CheckSpecValidationTest {

    @TempDir
    Path dir;

    @Test
    void badChecksAreReportedWithKeyPathValueAndReason() throws Exception {
        var problems = problems("""
                - {id: a, expect: expect_column_values_to_be_between, column: d, min_value: '2001-13-45', max_value: '2001-12-31'}
                - {id: b, expect: expect_metric_to_not_be_anomalous, metric: row_count, min_history: -1}
                - {id: c, expect: expect_column_values_to_match_strftime_format, column: code, strftime_format: '%Y-%Q-%d'}
                - {id: e, expect: expect_compound_columns_to_be_unique, column_list: [d, nosuch]}
                - {id: f, expect: expect_partition_to_be_fresh, column: code, max_lag: PT6H}
                - {id: g, expect: expect_column_mean_to_be_between, column: code, min_value: 1}
                - {id: h, expect: expect_column_values_to_be_between, column: n, min_value: abc, max_value: 10, strict_min: maybe}
                - {id: i, expect: expect_column_values_to_be_in_set, column: n, value_set: ['1', x]}
                - {id: j, expect: expect_metric_to_not_be_anomalous, metric: row_count, max_rate_decrease: 3, max_rate_increase: 0.1}
                - {id: k, expect: expect_column_values_to_be_between, column: n, min_value: 5, max_value: 5, strict_min: true}
                - {id: l, expect: expect_column_values_to_not_be_null, column: _source_pos}
                - {id: m, expect: expect_column_values_to_be_in_partition, column: n}
                - {id: o, expect: expect_column_values_to_be_in_partition, column: d}
                - {id: q, expect: expect_column_values_to_be_in_partition}
                """);
        assertThat(problems).extracting(p -> p.keyPath() + " = " + p.value() + ": " + p.reason()).containsExactlyInAnyOrder(
                "layers.bronze[0].checks[0].min_value = 2001-13-45: not a date value (the column is date)",
                "layers.bronze[0].checks[1].min_history = -1: must be positive",
                "layers.bronze[0].checks[2].strftime_format = %Y-%Q-%d: strftime directive %Q is not supported",
                "layers.bronze[0].checks[3].column_list = nosuch: not a column of this table; it has d, code, n, "
                        + String.join(", ", MetadataColumns.BRONZE.keySet()),
                "layers.bronze[0].checks[4].column = string: freshness needs a date or timestamp column",
                "layers.bronze[0].checks[5].column = string: expect_column_mean_to_be_between needs a numeric column (int, long, float, double, decimal)",
                "layers.bronze[0].checks[6].min_value = abc: not a long value (the column is long)",
                "layers.bronze[0].checks[6].strict_min = maybe: true or false",
                "layers.bronze[0].checks[7].value_set = x: not a long value (the column is long)",
                "layers.bronze[0].checks[8].max_rate_increase = 0.1: must be above max_rate_decrease 3 (they bound the value divided by the previous one, e.g. 0.5 and 2.0)",
                "layers.bronze[0].checks[9].max_value = 5: a strict bound equal to the other one leaves no value allowed",
                "layers.bronze[0].checks[11].column = long: expect_column_values_to_be_in_partition compares values with the partition's"
                        + " interval: it needs a date or timestamp column",
                "layers.bronze[0].checks[13].column = <missing>: required");
    }

    @Test
    void theGeVocabularyOfThisReleaseIsCheckedToo() throws Exception {
        var problems = problems("""
                - {id: ok1, expect: expect_compound_columns_to_be_unique, column_list: [d, code], mostly: 0.9}
                - {id: ok2, expect: expect_column_min_to_be_between, column: d, min_value: '2001-01-01'}
                - {id: ok3, expect: expect_column_max_to_be_between, column: code, max_value: zz}
                - {id: ok4, expect: expect_column_value_lengths_to_be_between, column: code, min_value: 1, max_value: 3}
                - {id: ok5, expect: expect_column_values_to_match_regex_list, column: code, regex_list: ['^a', '^b'], match_on: all}
                - {id: ok6, expect: expect_table_columns_to_match_set, column_set: [d, code, n], exact_match: false}
                - {id: ok7, expect: expect_column_to_exist, column: n, column_index: 2}
                - {id: ok8, expect: expect_column_stdev_to_be_between, column: n, max_value: 3.5}
                - {id: a, expect: expect_column_values_to_match_strftime_format, column: d, strftime_format: '%Y-%m-%d'}
                - {id: b, expect: expect_column_mean_to_be_between, column: d, min_value: '2001-01-01'}
                - {id: c, expect: expect_column_max_to_be_between, column: d, max_value: 'soon'}
                - {id: e, expect: expect_column_value_lengths_to_equal, column: n, value: 2}
                - {id: f, expect: expect_column_value_lengths_to_be_between, column: code, min_value: 1.5}
                - {id: g, expect: expect_column_values_to_match_regex_list, column: code, regex_list: ['(a'], match_on: some}
                - {id: h, expect: expect_column_to_exist, column: n, column_index: first}
                - {id: i, expect: expect_table_row_count_to_equal, value: -3}
                - {id: j, expect: expect_table_row_count_to_be_between, min_value: 1, mostly: 0.5}
                """);
        assertThat(problems).extracting(p -> p.keyPath() + " = " + p.value() + ": " + p.reason()).containsExactlyInAnyOrder(
                "layers.bronze[0].checks[8].column = date: expect_column_values_to_match_strftime_format judges text: it needs a string column",
                "layers.bronze[0].checks[9].column = date: expect_column_mean_to_be_between needs a numeric column (int, long, float, double, decimal)",
                "layers.bronze[0].checks[9].min_value = 2001-01-01: a number",
                "layers.bronze[0].checks[10].max_value = soon: not a date value (the column is date)",
                "layers.bronze[0].checks[11].column = long: expect_column_value_lengths_to_equal measures text: it needs a string column",
                "layers.bronze[0].checks[12].min_value = 1.5: a length: a whole number of characters",
                "layers.bronze[0].checks[13].regex_list = (a: not a valid regular expression: Unclosed group",
                "layers.bronze[0].checks[13].match_on = some: any (one pattern matches, the default) or all",
                "layers.bronze[0].checks[14].column_index = first: a position counted from 0 (metadata columns not counted)",
                "layers.bronze[0].checks[15].value = -3: a whole number",
                "layers.bronze[0].checks[16].mostly = 0.5: mostly applies to column-value checks and expect_compound_columns_to_be_unique"
                        + " (expect_table_row_count_to_be_between judges an aggregate)");
    }

    @Test
    void aMetricCheckNamesADeequMetricAndWhatItNeeds() throws Exception {
        var problems = problems("""
                - {id: ok1, expect: expect_metric_to_be_between, metric: entropy, column: code, max_value: 3}
                - {id: ok2, expect: expect_metric_to_be_between, metric: count_distinct, column_list: [d, code], min_value: 1}
                - {id: ok3, expect: expect_metric_to_not_be_anomalous, metric: distinctness, column: code}
                - {id: ok4, expect: expect_column_unique_value_count_to_be_between, column: code, max_value: 10}
                - {id: a, expect: expect_metric_to_be_between, metric: kurtosis, column: n, max_value: 3}
                - {id: b, expect: expect_metric_to_be_between, metric: sum, max_value: 3}
                - {id: c, expect: expect_metric_to_be_between, metric: correlation, column: n, max_value: 1}
                - {id: e, expect: expect_metric_to_be_between, metric: approx_quantile, column: n, quantile: 1.5, max_value: 1}
                - {id: f, expect: expect_metric_to_be_between, metric: row_count}
                - {id: g, expect: expect_column_median_to_be_between, column: code, max_value: 1}
                - {id: h, expect: expect_metric_to_be_between, metric: mean, column: code, max_value: 1}
                - {id: i, expect: expect_metric_to_be_between, metric: correlation, column: n, other_column: nosuch, max_value: 1}
                - {id: j, expect: expect_table_row_count_to_be_between, min_value: 1k}
                - {id: k, expect: expect_table_columns_to_match_set, column_set: [d], exact_match: "no"}
                - {id: l, expect: expect_metric_to_be_between, metric: max_length, column: n, max_value: 10}
                """);
        assertThat(problems).extracting(p -> p.keyPath() + " = " + p.value() + ": " + p.reason()).containsExactlyInAnyOrder(
                "layers.bronze[0].checks[4].metric = kurtosis: one of " + Metric.names(),
                "layers.bronze[0].checks[5].column = (missing): the sum of which column?",
                "layers.bronze[0].checks[6].other_column = (missing): the correlation of column with other_column",
                "layers.bronze[0].checks[7].quantile = 1.5: a fraction in [0, 1], e.g. 0.5 for the median",
                "layers.bronze[0].checks[8].min_value = (missing): give min_value, max_value or both",
                "layers.bronze[0].checks[9].column = string: expect_column_median_to_be_between needs a numeric column (int, long, float, double, decimal)",
                "layers.bronze[0].checks[10].column = string: the mean needs a numeric column (int, long, float, double, decimal)",
                "layers.bronze[0].checks[11].other_column = nosuch: not a column of this table; it has d, code, n, "
                        + String.join(", ", MetadataColumns.BRONZE.keySet()),
                "layers.bronze[0].checks[12].min_value = 1k: a number",
                "layers.bronze[0].checks[13].exact_match = no: true or false",
                "layers.bronze[0].checks[14].column = long: the max_length measures text: it needs a string column");
    }

    @Test
    void noDataIsAllowedOrBlockingPerCheckWithGesVerdictsAsDefaults() throws Exception {
        String valid = """
                - {id: a, expect: expect_column_values_to_be_in_set, column: code, value_set: [x], no_data: BLOCK}
                - {id: b, expect: expect_column_mean_to_be_between, column: n, max_value: 3, no_data: allow}
                - {id: c, expect: expect_column_mean_to_be_between, column: n, max_value: 3}
                - {id: e, expect: expect_column_values_to_not_be_null, column: code}
                - {id: f, expect: expect_compound_columns_to_be_unique, column_list: [d, code]}
                - {id: g, expect: expect_metric_to_not_be_anomalous, metric: row_count}
                """;
        var problems = problems(valid + """
                - {id: h, expect: expect_column_values_to_be_in_set, column: code, value_set: [x], no_data: skip}
                - {id: i, expect: expect_partition_to_be_fresh, column: d, max_lag: PT6H, no_data: allow}
                - {id: j, expect: expect_column_to_exist, column: d, no_data: block}
                """);
        String applies = " always has data to judge (columns, or the newest value: nothing arrived fails a freshness check);"
                + " no_data applies to value, aggregate, metric and anomaly checks";
        assertThat(problems).extracting(p -> p.keyPath() + " = " + p.value() + ": " + p.reason()).containsExactlyInAnyOrder(
                "layers.bronze[0].checks[6].no_data = skip: block or allow",
                "layers.bronze[0].checks[7].no_data = allow: expect_partition_to_be_fresh" + applies,
                "layers.bronze[0].checks[8].no_data = block: expect_column_to_exist" + applies);
        problems(valid);
        List<CheckSpec> checks = new PipelineSpecLoader(new SluiceEnvironment(Map.of()).interpolator()).load(dir.resolve("t.yaml"))
                .tables(Layer.BRONZE).get(0).checks();
        assertThat(checks).extracting(CheckSpec::id, CheckSpec::noData, CheckSpec::noDataBlocks).containsExactly(
                tuple("a", NoDataPolicy.BLOCK, true), tuple("b", NoDataPolicy.ALLOW, false), tuple("c", null, true),
                tuple("e", null, false), tuple("f", null, false), tuple("g", null, true));
    }

    @Test
    void quantileRangesAndDistinctValueSetsAreChecked() throws Exception {
        var problems = problems("""
                - {id: ok1, expect: expect_column_quantile_values_to_be_between, column: n,
                   quantile_ranges: {quantiles: [0.25, 0.5], value_ranges: [[0, 2], [null, 4]]}}
                - {id: ok2, expect: expect_column_distinct_values_to_be_in_set, column: d, value_set: ['2001-01-01', '2001-01-02']}
                - {id: ok3, expect: expect_column_most_common_value_to_be_in_set, column: code, value_set: [a], ties_okay: true}
                - {id: a, expect: expect_column_quantile_values_to_be_between, column: n,
                   quantile_ranges: {quantiles: [0.25, 1.5], value_ranges: [[0, 2], [1, 4]]}}
                - {id: b, expect: expect_column_quantile_values_to_be_between, column: n,
                   quantile_ranges: {quantiles: [0.5], value_ranges: [[5, 2]]}}
                - {id: c, expect: expect_column_quantile_values_to_be_between, column: n, quantile_ranges: {quantiles: [0.5]}}
                - {id: e, expect: expect_column_quantile_values_to_be_between, column: code,
                   quantile_ranges: {quantiles: [0.5], value_ranges: [[1, 2]]}, allow_relative_error: 2}
                - {id: f, expect: expect_column_distinct_values_to_equal_set, column: n, value_set: [1, x]}
                - {id: g, expect: expect_column_distinct_values_to_contain_set, column: code}
                """);
        assertThat(problems).extracting(p -> p.keyPath() + " = " + p.value() + ": " + p.reason()).containsExactlyInAnyOrder(
                "layers.bronze[0].checks[3].quantile_ranges = {quantiles=[0.25, 1.5], value_ranges=[[0, 2], [1, 4]]}:"
                        + " quantile 1.5 is not a fraction in [0, 1]",
                "layers.bronze[0].checks[4].quantile_ranges = {quantiles=[0.5], value_ranges=[[5, 2]]}: value range [5, 2] has its min above its max",
                "layers.bronze[0].checks[5].quantile_ranges.value_ranges = <missing>: required",
                "layers.bronze[0].checks[6].column = string: expect_column_quantile_values_to_be_between needs a numeric column (int, long, float, double, decimal)",
                "layers.bronze[0].checks[6].allow_relative_error = 2: false (exact, the default), true (Deequ's 0.01) or a relative"
                        + " rank error in [0, 1)",
                "layers.bronze[0].checks[7].value_set = x: not a long value (the column is long)",
                "layers.bronze[0].checks[8].value_set = (missing): required by this expectation");
    }

    @Test
    void rowChecksNameTheirColumnsAndHowRowsAreSkipped() throws Exception {
        var problems = problems("""
                - {id: ok1, expect: expect_column_pair_values_A_to_be_greater_than_B, column_A: n, column_B: n, or_equal: true}
                - {id: ok2, expect: expect_column_pair_values_to_be_in_set, column_A: code, column_B: n, value_pairs_set: [[a, 1], [b, null]]}
                - {id: ok3, expect: expect_multicolumn_sum_to_equal, column_list: [n, n], sum_total: 1, ignore_row_if: never}
                - {id: ok4, expect: expect_select_column_values_to_be_unique_within_record, column_list: [n, n], mostly: 0.9}
                - {id: a, expect: expect_column_pair_values_to_be_equal, column_A: n, column_B: nosuch, ignore_row_if: never}
                - {id: b, expect: expect_column_pair_values_to_be_in_set, column_A: code, column_B: n, value_pairs_set: [[a, 1, 2]]}
                - {id: c, expect: expect_multicolumn_sum_to_equal, column_list: [n], sum_total: lots}
                - {id: e, expect: expect_column_pair_values_a_to_be_greater_than_b, column_A: n}
                """);
        assertThat(problems).extracting(p -> p.keyPath() + " = " + p.value() + ": " + p.reason()).containsExactlyInAnyOrder(
                "layers.bronze[0].checks[4].column_B = nosuch: not a column of this table; it has d, code, n, "
                        + String.join(", ", MetadataColumns.BRONZE.keySet()),
                "layers.bronze[0].checks[4].ignore_row_if = never: one of both_values_are_missing, either_value_is_missing, neither",
                "layers.bronze[0].checks[5].value_pairs_set[0] = [a, 1, 2]: a pair [value of column_A, value of column_B]",
                "layers.bronze[0].checks[6].sum_total = lots: a number",
                "layers.bronze[0].checks[7].column_B = (missing): required by this expectation");
    }

    @Test
    void whatABreakingUserTriedIsRefusedBeforeARun() throws Exception {
        var problems = problems("""
                - {id: a, expect: expect_column_pair_values_A_to_be_greater_than_B, column_A: code, column_B: d}
                - {id: b, expect: expect_column_pair_values_to_be_in_set, column_A: n, column_B: d, value_pairs_set: [[one, not-a-date], [1, null]]}
                - {id: c, expect: expect_multicolumn_sum_to_equal, column_list: [n, code], sum_total: 10}
                - {id: e, expect: expect_select_column_values_to_be_unique_within_record, column_list: [code, n]}
                - {id: f, expect: expect_column_most_common_value_to_be_in_set, column: code, value_set: [a], ties_okay: maybe}
                - {id: g, expect: expect_column_quantile_values_to_be_between, column: n, quantile_ranges: {quantiles: [], value_ranges: []}}
                - {id: h, expect: expect_column_quantile_values_to_be_between, column: n,
                   quantile_ranges: {quantiles: ["NaN"], value_ranges: [["1d", "Infinity"]]}}
                - {id: ok, expect: expect_column_pair_values_to_be_equal, column_A: n, column_B: n}
                """);
        assertThat(problems).extracting(p -> p.keyPath() + " = " + p.value() + ": " + p.reason()).containsExactlyInAnyOrder(
                "layers.bronze[0].checks[0].column_B = d: date cannot be compared with code (string): the columns need comparable types"
                        + " (numbers, dates and timestamps, or one type)",
                "layers.bronze[0].checks[1].value_pairs_set = one: not a long value (n is long)",
                "layers.bronze[0].checks[1].value_pairs_set = not-a-date: not a date value (d is date)",
                "layers.bronze[0].checks[2].column_list = code: string: a sum needs numeric columns (int, long, float, double, decimal)",
                "layers.bronze[0].checks[3].column_list = n: long cannot be compared with code (string): the columns need comparable types"
                        + " (numbers, dates and timestamps, or one type)",
                "layers.bronze[0].checks[4].ties_okay = maybe: true or false",
                "layers.bronze[0].checks[5].quantile_ranges = {quantiles=[], value_ranges=[]}: quantile_ranges needs at least one quantile",
                "layers.bronze[0].checks[6].quantile_ranges = {quantiles=[NaN], value_ranges=[[1d, Infinity]]}: quantile NaN is not a finite number");
    }

    @Test
    void yamlAliasesAndMergeKeysAreRefusedNotReadAsText() throws Exception {
        var problems = problems("""
                - {id: a, expect: expect_column_values_to_be_in_set, column: code, value_set: [&g gamma, *g]}
                """);
        assertThat(problems).extracting(p -> p.keyPath() + " = " + p.value() + ": " + p.reason()).containsExactly(
                "line 9, column 98 = *g: a YAML alias is not read by Sluice (it would be taken as plain text): write the value out");
    }

    /** The problems {@code validate} finds in a spec whose Bronze table (columns d date, code string, n long) has {@code checks}. */
    private List<SpecProblem> problems(String checks) throws Exception {
        Files.createDirectories(dir.resolve("contracts"));
        Files.writeString(dir.resolve("contracts/t.v1.yaml"), """
                contract: t
                version: 1
                columns:
                  - {name: d, type: date}
                  - {name: code, type: string}
                  - {name: n, type: long}
                """);
        Path spec = dir.resolve("t.yaml");
        Files.writeString(spec, """
                pipeline: t
                warehouse: {url: "jdbc:h2:mem:x"}
                sources: [{name: t, format: csv, path: "/l/{partition}", contract: contracts/t.v1.yaml}]
                layers:
                  bronze:
                    - table: bronze.t_raw
                      source: t
                      checks:
                """ + checks.indent(8) + """
                  silver: [{table: silver.t, input: bronze.t_raw, key: [n], columns: {n: long}, sql: "SELECT n FROM {input} r"}]
                  gold: [{table: gold.t, input: silver.t, key: [c], columns: {c: long}, sql: "SELECT COUNT(*) AS c FROM {input} s"}]
                """);
        return new PipelineSpecLoader(new SluiceEnvironment(Map.of()).interpolator()).validate(spec);
    }
}
