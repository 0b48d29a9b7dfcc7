package dev.sluice.quality;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.sluice.config.CheckSpec;
import dev.sluice.config.Expectation;
import dev.sluice.config.Severity;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.Partition;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Judging many partitions in one pass ({@link QualityGate#evaluateAll}) gives, check by check, the
 * very results of judging each partition alone ({@link QualityGate#evaluate}) — statuses, metrics,
 * counts, unexpected samples and messages — on data with NULLs, duplicates, an empty partition, a
 * stale partition and a row-count anomaly whose history runs through the batch itself.
 */
class GroupedEvaluationIT {

    private final QualityGate gate = QualityGate.deequ("local[2]");

    private static final List<CheckSpec> CHECKS = List.of(
            new CheckSpec("rows", Expectation.EXPECT_TABLE_ROW_COUNT_TO_BE_BETWEEN, Severity.ERROR, null, null, Map.of("min_value", 1)),
            new CheckSpec("code_nn", Expectation.EXPECT_COLUMN_VALUES_TO_NOT_BE_NULL, Severity.WARN, 0.9, "code", Map.of()),
            new CheckSpec("code_set", Expectation.EXPECT_COLUMN_VALUES_TO_BE_IN_SET, Severity.WARN, null, "code",
                    Map.of("value_set", List.of("a", "b", "c"))),
            new CheckSpec("code_re", Expectation.EXPECT_COLUMN_VALUES_TO_MATCH_REGEX, Severity.WARN, null, "code", Map.of("regex", "^[a-c]$")),
            new CheckSpec("id_unique", Expectation.EXPECT_COLUMN_VALUES_TO_BE_UNIQUE, Severity.ERROR, null, "id", Map.of()),
            new CheckSpec("pair_unique", Expectation.EXPECT_COMPOUND_COLUMNS_TO_BE_UNIQUE, Severity.WARN, null, null,
                    Map.of("column_list", List.of("code", "n"))),
            new CheckSpec("n_between", Expectation.EXPECT_COLUMN_VALUES_TO_BE_BETWEEN, Severity.WARN, null, "n",
                    Map.of("min_value", 0, "max_value", 10)),
            new CheckSpec("n_mean", Expectation.EXPECT_COLUMN_MEAN_TO_BE_BETWEEN, Severity.WARN, null, "n", Map.of("min_value", 1, "max_value", 5)),
            new CheckSpec("n_max", Expectation.EXPECT_COLUMN_MAX_TO_BE_BETWEEN, Severity.WARN, null, "n", Map.of("max_value", 9)),
            new CheckSpec("fresh", Expectation.EXPECT_PARTITION_TO_BE_FRESH, Severity.WARN, null, "ts", Map.of("max_lag", "PT6H")),
            new CheckSpec("ts_in", Expectation.EXPECT_COLUMN_VALUES_TO_BE_IN_PARTITION, Severity.ERROR, null, "ts", Map.of()),
            new CheckSpec("cols", Expectation.EXPECT_TABLE_COLUMNS_TO_MATCH_ORDERED_LIST, Severity.WARN, null, null,
                    Map.of("column_list", List.of("id", "code", "n", "ts"))),
            new CheckSpec("volume", Expectation.EXPECT_METRIC_TO_NOT_BE_ANOMALOUS, Severity.WARN, null, null,
                    Map.of("metric", "row_count", "min_history", 2)),
            new CheckSpec("pair_mostly", Expectation.EXPECT_COMPOUND_COLUMNS_TO_BE_UNIQUE, Severity.WARN, 0.5, null,
                    Map.of("column_list", List.of("code", "n"))),
            new CheckSpec("code_min", Expectation.EXPECT_COLUMN_MIN_TO_BE_BETWEEN, Severity.WARN, null, "code", Map.of("min_value", "b")),
            new CheckSpec("ts_max", Expectation.EXPECT_COLUMN_MAX_TO_BE_BETWEEN, Severity.WARN, null, "ts",
                    Map.of("max_value", "2001-01-05 12:00:00")),
            new CheckSpec("n_sum", Expectation.EXPECT_COLUMN_SUM_TO_BE_BETWEEN, Severity.WARN, null, "n", Map.of("max_value", 100)),
            new CheckSpec("n_stdev", Expectation.EXPECT_COLUMN_STDEV_TO_BE_BETWEEN, Severity.WARN, null, "n", Map.of("max_value", 2.1)),
            new CheckSpec("code_len", Expectation.EXPECT_COLUMN_VALUE_LENGTHS_TO_EQUAL, Severity.WARN, null, "code", Map.of("value", 1)),
            new CheckSpec("code_not", Expectation.EXPECT_COLUMN_VALUES_TO_NOT_BE_IN_SET, Severity.WARN, null, "code",
                    Map.of("value_set", List.of("zz"))),
            new CheckSpec("code_res", Expectation.EXPECT_COLUMN_VALUES_TO_MATCH_REGEX_LIST, Severity.WARN, null, "code",
                    Map.of("regex_list", List.of("^a$", "^b$"), "match_on", "any")),
            new CheckSpec("rows_eq", Expectation.EXPECT_TABLE_ROW_COUNT_TO_EQUAL, Severity.WARN, null, null, Map.of("value", 40)),
            new CheckSpec("ncols", Expectation.EXPECT_TABLE_COLUMN_COUNT_TO_EQUAL, Severity.WARN, null, null, Map.of("value", 4)),
            new CheckSpec("code_kinds", Expectation.EXPECT_COLUMN_UNIQUE_VALUE_COUNT_TO_BE_BETWEEN, Severity.WARN, null, "code",
                    Map.of("max_value", 3)),
            new CheckSpec("code_prop", Expectation.EXPECT_COLUMN_PROPORTION_OF_UNIQUE_VALUES_TO_BE_BETWEEN, Severity.WARN, null, "code",
                    Map.of("min_value", 0.5)),
            new CheckSpec("n_median", Expectation.EXPECT_COLUMN_MEDIAN_TO_BE_BETWEEN, Severity.WARN, null, "n", Map.of("max_value", 3)),
            metric("m_distinct", "distinctness", "code", Map.of("column_list", List.of("code", "n"))),
            metric("m_uvr", "unique_value_ratio", "code", Map.of()),
            metric("m_cd", "count_distinct", "code", Map.of()),
            metric("m_entropy", "entropy", "code", Map.of()),
            metric("m_acd", "approx_count_distinct", "id", Map.of()),
            metric("m_minlen", "min_length", "code", Map.of()),
            metric("m_corr", "correlation", "id", Map.of("other_column", "n")),
            metric("m_q", "approx_quantile", "n", Map.of("quantile", 0.5)),
            metric("m_eq", "exact_quantile", "n", Map.of("quantile", 0.25)),
            new CheckSpec("kinds_anomaly", Expectation.EXPECT_METRIC_TO_NOT_BE_ANOMALOUS, Severity.WARN, null, "code",
                    Map.of("metric", "count_distinct", "min_history", 1)),
            new CheckSpec("code_distinct_in", Expectation.EXPECT_COLUMN_DISTINCT_VALUES_TO_BE_IN_SET, Severity.WARN, null, "code",
                    Map.of("value_set", List.of("a", "b", "c"))),
            new CheckSpec("code_distinct_has", Expectation.EXPECT_COLUMN_DISTINCT_VALUES_TO_CONTAIN_SET, Severity.WARN, null, "code",
                    Map.of("value_set", List.of("a", "b", "c"))),
            new CheckSpec("n_distinct_eq", Expectation.EXPECT_COLUMN_DISTINCT_VALUES_TO_EQUAL_SET, Severity.WARN, null, "n",
                    Map.of("value_set", List.of(0, 1, 2, 3, 4, 5, "6.0"))),
            new CheckSpec("code_mode", Expectation.EXPECT_COLUMN_MOST_COMMON_VALUE_TO_BE_IN_SET, Severity.WARN, null, "code",
                    Map.of("value_set", List.of("a"))),
            new CheckSpec("n_quartiles", Expectation.EXPECT_COLUMN_QUANTILE_VALUES_TO_BE_BETWEEN, Severity.WARN, null, "n",
                    Map.of("quantile_ranges", Map.of("quantiles", List.of(0.25, 0.5, 0.75),
                            "value_ranges", java.util.Arrays.asList(List.of(0, 2), java.util.Arrays.asList(null, 4), List.of(3, 6))))),
            new CheckSpec("n_above_id", Expectation.EXPECT_COLUMN_PAIR_VALUES_A_TO_BE_GREATER_THAN_B, Severity.WARN, null, null,
                    Map.of("column_A", "n", "column_B", "id")),
            new CheckSpec("id_n_differ", Expectation.EXPECT_SELECT_COLUMN_VALUES_TO_BE_UNIQUE_WITHIN_RECORD, Severity.WARN, null, null,
                    Map.of("column_list", List.of("id", "n"))),
            new CheckSpec("code_n_pairs", Expectation.EXPECT_COLUMN_PAIR_VALUES_TO_BE_IN_SET, Severity.WARN, 0.5, null,
                    Map.of("column_A", "code", "column_B", "n", "value_pairs_set", List.of(List.of("a", 1), List.of("b", "11"))),
                    dev.sluice.config.NoDataPolicy.BLOCK),
            new CheckSpec("id_n_sum", Expectation.EXPECT_MULTICOLUMN_SUM_TO_EQUAL, Severity.WARN, null, null,
                    Map.of("column_list", List.of("id", "n"), "sum_total", 2, "ignore_row_if", "any_value_is_missing")));

    private static CheckSpec metric(String id, String metric, String column, Map<String, Object> more) {
        Map<String, Object> params = new java.util.HashMap<>(more);
        params.put("metric", metric);
        params.put("max_value", 1000);
        return new CheckSpec(id, Expectation.EXPECT_METRIC_TO_BE_BETWEEN, Severity.WARN, null, column, params);
    }

    @Test
    void manyPartitionsInOnePassAreJudgedExactlyAsEachAlone() throws Exception {
        String url = "jdbc:h2:mem:grouped-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        List<Partition> days = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE v (_partition VARCHAR(10), id BIGINT, code VARCHAR(10), n INTEGER, ts TIMESTAMP)");
            st.execute("CREATE INDEX v_p ON v(_partition)");
            // 2001-01-01..03 clean, 40 rows each; 04 empty; 05 NULLs, duplicates, odd codes, out-of-range n, stale; 06 tiny
            for (int d = 1; d <= 3; d++) {
                st.execute("INSERT INTO v SELECT '2001-01-0" + d + "', X, CASE MOD(X, 3) WHEN 0 THEN 'a' WHEN 1 THEN 'b' ELSE 'c' END,"
                        + " MOD(X, 7), TIMESTAMP '2001-01-0" + d + " 23:00:00' - X * INTERVAL '1' MINUTE FROM SYSTEM_RANGE(1, 40)");
            }
            st.execute("INSERT INTO v VALUES ('2001-01-05', 1, 'a', 1, TIMESTAMP '2001-01-05 09:00:00'), ('2001-01-05', 1, 'a', 1, NULL),"
                    + " ('2001-01-05', 2, NULL, NULL, NULL), ('2001-01-05', 3, 'zz', 12, NULL), ('2001-01-05', 4, 'b', 11, NULL),"
                    + " ('2001-01-05', NULL, 'c', 2, NULL)");
            st.execute("INSERT INTO v VALUES ('2001-01-06', 1, 'a', 1, TIMESTAMP '2001-01-06 22:00:00')");
            // 07: rows of the day before and the day after filed under it
            st.execute("INSERT INTO v VALUES ('2001-01-07', 1, 'a', 1, TIMESTAMP '2001-01-06 23:00:00'),"
                    + " ('2001-01-07', 2, 'b', 2, TIMESTAMP '2001-01-08 00:00:00')");
        }
        for (int d = 1; d <= 7; d++) {
            days.add(Partition.daily(LocalDate.of(2001, 1, d)));
        }
        DatasetRef ds = DatasetRef.parse("t.v");
        String columns = "SELECT _partition, id, code, n, ts FROM v";

        // each alone, in order, the history being what was accepted before (as the result store keeps it)
        SortedMap<Partition, GateResult> alone = new TreeMap<>();
        TreeMap<Partition, Double> stored = new TreeMap<>();
        for (Partition p : days) {
            PartitionSource source = new PartitionSource.JdbcQuery(url, "sa", "", columns + " WHERE _partition = '" + p.key() + "'", "id",
                    p.date().plusDays(1).atStartOfDay());
            GateResult r = gate.evaluate(ds, p, Boundary.SOURCE, source, CHECKS, id -> new ArrayList<>(stored.headMap(p).values()));
            alone.put(p, r);
            CheckResult volume = check(r, "volume");
            if (volume.metric() != null && volume.status() != CheckStatus.WARNED) {
                stored.put(p, volume.metric());
            }
        }

        // 01 is already stored; 02..06 are judged together, with a stale stored value for 03 that the batch replaces
        TreeMap<Partition, Double> before = new TreeMap<>(Map.of(days.get(0), stored.get(days.get(0)), days.get(2), 999.0));
        List<PartitionBatch.Member> members = days.subList(1, 7).stream()
                .map(p -> new PartitionBatch.Member(p, "v._partition = '" + p.key() + "'", p.date().plusDays(1).atStartOfDay())).toList();
        PartitionBatch batch = new PartitionBatch.JdbcQueries(url, "sa", "", "v", List.of("_partition", "id", "code", "n", "ts"),
                "_partition", "id", members);
        SortedMap<Partition, GateResult> together = gate.evaluateAll(ds, Boundary.SOURCE, batch, CHECKS,
                (id, p) -> new TreeMap<>(before.headMap(p)));

        assertThat(together.keySet()).containsExactlyElementsOf(days.subList(1, 7));
        for (Partition p : together.keySet()) {
            assertThat(together.get(p).checks()).as("partition %s", p).containsExactlyElementsOf(alone.get(p).checks());
        }
        // and the data really exercised the rules: the empty day fails its row count, day 5 warns, day 6 is an anomaly
        // against day 3 (the empty day and day 5 were anomalies themselves, so not accepted; the stale 999 was replaced)
        assertThat(status(together, 3, "rows")).isEqualTo(CheckStatus.FAILED);
        assertThat(status(together, 4, "id_unique")).isEqualTo(CheckStatus.FAILED);
        assertThat(together.get(days.get(4)).checks().get(4).unexpectedValues()).containsExactly(1L, 1L);
        assertThat(status(together, 4, "code_set")).isEqualTo(CheckStatus.WARNED);
        assertThat(status(together, 4, "fresh")).isEqualTo(CheckStatus.WARNED);
        assertThat(status(together, 1, "fresh")).isEqualTo(CheckStatus.PASSED);
        // day 7's newest ts is the next day's midnight: not fresh data but another day's (it passed with a negative lag before)
        assertThat(status(together, 6, "fresh")).isEqualTo(CheckStatus.WARNED);
        assertThat(check(together.get(days.get(6)), "fresh").message()).isEqualTo("newest ts 2001-01-08T00:00 is at or after the partition's"
                + " end 2001-01-08T00:00: values beyond the partition (another interval's data filed under this one?)");
        // in the partition: a full day and day 5 hold; the empty day has nothing to judge; day 7 has both neighbours' rows
        assertThat(status(together, 1, "ts_in")).isEqualTo(CheckStatus.PASSED);
        assertThat(check(together.get(days.get(1)), "ts_in").observedValue()).isEqualTo(List.of("2001-01-02T22:20", "2001-01-02T22:59"));
        assertThat(status(together, 3, "ts_in")).isEqualTo(CheckStatus.NO_DATA);
        assertThat(status(together, 4, "ts_in")).isEqualTo(CheckStatus.PASSED);
        CheckResult inDay = check(together.get(days.get(6)), "ts_in");
        assertThat(List.of(inDay.status(), inDay.unexpectedValues())).containsExactly(CheckStatus.FAILED,
                List.of("2001-01-06T23:00", "2001-01-08T00:00"));
        assertThat(inDay.message()).isEqualTo("ts from 2001-01-06T23:00 to 2001-01-08T00:00, outside the partition's interval"
                + " [2001-01-07T00:00, 2001-01-08T00:00): rows of another interval are filed under this partition");
        assertThat(status(together, 5, "volume")).isEqualTo(CheckStatus.WARNED);
        assertThat(check(together.get(days.get(5)), "volume").message()).contains("row_count 1 is 2.50 % of the previous accepted 40");
        // day 5: (code, n) pairs (a,1) twice among 5 judged rows (the all-NULL pair ignored): 0.6 unique, mostly 0.5 holds
        CheckResult pairs = check(together.get(days.get(4)), "pair_mostly");
        assertThat(pairs.status()).isEqualTo(CheckStatus.PASSED);
        assertThat(pairs.metric()).isEqualTo(0.6);
        assertThat(pairs.unexpectedCount()).isEqualTo(2);
        assertThat(pairs.unexpectedValues()).containsExactly(Map.of("code", "a", "n", 1), Map.of("code", "a", "n", 1));
        assertThat(pairs.unexpectedRowIds()).containsExactly(1L, 1L);
        // the least code 'a' is below 'b'; the newest ts 09:00 is within 12:00
        assertThat(check(together.get(days.get(4)), "code_min").observedValue()).isEqualTo("a");
        assertThat(status(together, 4, "code_min")).isEqualTo(CheckStatus.WARNED);
        assertThat(check(together.get(days.get(4)), "ts_max").observedValue()).isEqualTo("2001-01-05T09:00");
        assertThat(status(together, 4, "ts_max")).isEqualTo(CheckStatus.PASSED);
        // sums: 1..40 mod 7 = 120 on a full day, 27 on day 5; the sample deviation of 1, 1, 12, 11, 2 is √31.3
        assertThat(check(together.get(days.get(1)), "n_sum").observedValue()).isEqualTo(120.0);
        assertThat(check(together.get(days.get(4)), "n_sum").observedValue()).isEqualTo(27.0);
        assertThat((Double) check(together.get(days.get(4)), "n_stdev").observedValue()).isCloseTo(Math.sqrt(31.3), within(1e-12));
        assertThat(status(together, 5, "n_stdev")).isEqualTo(CheckStatus.NO_DATA);
        assertThat(check(together.get(days.get(5)), "n_stdev").message())
                .isEqualTo("no standard deviation: 1 non-null value(s), at least 2 needed; the partition goes on (a warn check never blocks)");
        assertThat(check(together.get(days.get(4)), "code_len").unexpectedValues()).containsExactly("zz");
        assertThat(check(together.get(days.get(4)), "code_not").unexpectedValues()).containsExactly("zz");
        assertThat(check(together.get(days.get(4)), "code_res").unexpectedValues()).containsExactlyInAnyOrder("zz", "c");
        assertThat(status(together, 1, "rows_eq")).isEqualTo(CheckStatus.PASSED);
        assertThat(status(together, 4, "rows_eq")).isEqualTo(CheckStatus.WARNED);
        assertThat(check(together.get(days.get(4)), "ncols").observedValue()).isEqualTo(4L);
        // day 5's codes a, a, NULL, zz, b, c: 4 distinct among 5 values (proportion 0.8), 3 occurring once (ratio 3/4);
        // a full day's 40 codes are a, b, c (3 distinct: the count holds, proportion 3/40 does not)
        assertThat(check(together.get(days.get(4)), "code_kinds").observedValue()).isEqualTo(4L);
        assertThat(status(together, 4, "code_kinds")).isEqualTo(CheckStatus.WARNED);
        assertThat(check(together.get(days.get(1)), "code_kinds").observedValue()).isEqualTo(3L);
        assertThat(check(together.get(days.get(4)), "code_prop").metric()).isEqualTo(0.8);
        assertThat(status(together, 1, "code_prop")).isEqualTo(CheckStatus.WARNED);
        assertThat(check(together.get(days.get(4)), "m_uvr").metric()).isEqualTo(0.75);
        assertThat(check(together.get(days.get(4)), "m_cd").metric()).isEqualTo(4.0);
        // entropy of a, a, zz, b, c (natural log): −(0.4 ln 0.4 + 3 × 0.2 ln 0.2)
        assertThat(check(together.get(days.get(4)), "m_entropy").metric())
                .isCloseTo(-(0.4 * Math.log(0.4) + 3 * 0.2 * Math.log(0.2)), within(1e-12));
        // the median of n on day 5 (1, 1, 12, 11, 2) is 2; its exact first quartile 1
        assertThat(check(together.get(days.get(4)), "n_median").metric()).isEqualTo(2.0);
        assertThat(check(together.get(days.get(4)), "m_eq").metric()).isEqualTo(1.0);
        assertThat(check(together.get(days.get(4)), "m_minlen").metric()).isEqualTo(1.0);
        // distinct values: day 5 has a, b, c, zz (zz outside the set, the set all there); day 6 only a; the empty day none
        CheckResult distinct = check(together.get(days.get(4)), "code_distinct_in");
        assertThat(List.of(distinct.status(), distinct.observedValue(), distinct.unexpectedValues()))
                .containsExactly(CheckStatus.WARNED, List.of("a", "b", "c", "zz"), List.of("zz"));
        assertThat(status(together, 1, "code_distinct_in")).isEqualTo(CheckStatus.PASSED);
        assertThat(status(together, 3, "code_distinct_in")).isEqualTo(CheckStatus.NO_DATA);
        assertThat(status(together, 4, "code_distinct_has")).isEqualTo(CheckStatus.PASSED);
        assertThat(check(together.get(days.get(5)), "code_distinct_has").message()).isEqualTo("1 distinct value(s) [a]; missing from the data: [b, c]");
        // n of a full day is X mod 7: 0..6 (the set's 6.0 is 6); day 5's 1, 2, 11, 12 are not
        assertThat(status(together, 1, "n_distinct_eq")).isEqualTo(CheckStatus.PASSED);
        assertThat(check(together.get(days.get(4)), "n_distinct_eq").message())
                .isEqualTo("4 distinct value(s) [1, 2, 11, 12]; not in the set: [11, 12]; missing from the data: [0, 3, 4, 5, 6]");
        // most common: day 5's a (twice); a full day's b (14 of 40: X mod 3 = 1 for X in 1..40)
        assertThat(status(together, 4, "code_mode")).isEqualTo(CheckStatus.PASSED);
        assertThat(check(together.get(days.get(1)), "code_mode").message()).isEqualTo("most common [b] (14 row(s) each)");
        assertThat(status(together, 1, "code_mode")).isEqualTo(CheckStatus.WARNED);
        // quartiles of day 5's n (1, 1, 2, 11, 12) as Spark's exact approxQuantile: the 2nd, 3rd and 4th values
        CheckResult quartiles = check(together.get(days.get(4)), "n_quartiles");
        assertThat(quartiles.observedValue()).isEqualTo(Map.of("quantiles", List.of(0.25, 0.5, 0.75), "values", List.of(1.0, 2.0, 11.0)));
        assertThat(List.of(quartiles.status(), quartiles.message()))
                .containsExactly(CheckStatus.WARNED, "quantile 0.75 is 11.0, outside [3.0, 6.0]");
        assertThat(status(together, 3, "n_quartiles")).isEqualTo(CheckStatus.NO_DATA);
        // rows of day 5 (id, code, n): (1,a,1) twice, (2,NULL,NULL), (3,zz,12), (4,b,11), (NULL,c,2)
        // n > id: 1 > 1 fails twice; a NULL on one side is judged but not unexpected
        CheckResult above = check(together.get(days.get(4)), "n_above_id");
        assertThat(List.of(above.status(), above.elementCount(), above.unexpectedCount(), above.unexpectedValues(), above.unexpectedRowIds()))
                .containsExactly(CheckStatus.WARNED, 6L, 2L, List.of(List.of(1, 1L), List.of(1, 1L)), List.of(1L, 1L));
        assertThat(above.message()).isEqualTo("2 of 6 row(s) unexpected (33.333 %), e.g. [[1, 1], [1, 1]]");
        CheckResult differ = check(together.get(days.get(4)), "id_n_differ");
        assertThat(List.of(differ.unexpectedCount(), differ.unexpectedValues()))
                .containsExactly(2L, List.of(Map.of("id", 1L, "n", 1), Map.of("id", 1L, "n", 1)));
        // (code, n) in {(a, 1), (b, 11)}: of the 5 judged rows ((NULL, NULL) skipped), (zz, 12) and (c, 2) are not: 0.6 >= mostly 0.5
        CheckResult pairs2 = check(together.get(days.get(4)), "code_n_pairs");
        assertThat(List.of(pairs2.status(), pairs2.elementCount(), pairs2.unexpectedCount())).containsExactly(CheckStatus.PASSED, 5L, 2L);
        assertThat(pairs2.metric()).isEqualTo(0.6);
        assertThat(status(together, 3, "code_n_pairs")).isEqualTo(CheckStatus.NO_DATA);
        // id + n = 2 on rows with both: (1,1) twice hold, (3,12) and (4,11) do not
        CheckResult sum = check(together.get(days.get(4)), "id_n_sum");
        assertThat(List.of(sum.elementCount(), sum.unexpectedCount())).containsExactly(4L, 2L);
    }

    /**
     * Without a row id (Silver and Gold have none) the duplicate samples of a compound uniqueness
     * check are the same in one pass as alone too: days of 40 rows whose (code, n) pairs repeat
     * (21 distinct pairs each), the same pairs on every day, so that duplicates counted across days
     * would differ.
     */
    @Test
    void compoundDuplicatesWithoutARowIdAreSampledAsEachAlone() throws Exception {
        String url = "jdbc:h2:mem:grouped-noid-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE v (_partition VARCHAR(10), code VARCHAR(10), n INTEGER)");
            for (int d = 1; d <= 3; d++) {
                st.execute("INSERT INTO v SELECT '2001-01-0" + d + "', CASE MOD(X, 3) WHEN 0 THEN 'a' WHEN 1 THEN 'b' ELSE 'c' END,"
                        + " MOD(X, 7) FROM SYSTEM_RANGE(1, 40)");
            }
        }
        List<CheckSpec> checks = List.of(new CheckSpec("pair_unique", Expectation.EXPECT_COMPOUND_COLUMNS_TO_BE_UNIQUE, Severity.WARN, null,
                null, Map.of("column_list", List.of("code", "n"))));
        List<Partition> days = List.of(Partition.daily(LocalDate.of(2001, 1, 1)), Partition.daily(LocalDate.of(2001, 1, 2)),
                Partition.daily(LocalDate.of(2001, 1, 3)));
        DatasetRef ds = DatasetRef.parse("t.v");
        SortedMap<Partition, GateResult> alone = new TreeMap<>();
        for (Partition p : days) {
            alone.put(p, gate.evaluate(ds, p, Boundary.SOURCE, new PartitionSource.JdbcQuery(url, "sa", "",
                    "SELECT _partition, code, n FROM v WHERE _partition = '" + p.key() + "'", null, p.date().plusDays(1).atStartOfDay()),
                    checks, id -> new ArrayList<>()));
        }
        PartitionBatch batch = new PartitionBatch.JdbcQueries(url, "sa", "", "v", List.of("_partition", "code", "n"), "_partition", null,
                days.stream().map(p -> new PartitionBatch.Member(p, "v._partition = '" + p.key() + "'", p.date().plusDays(1).atStartOfDay()))
                        .toList());
        SortedMap<Partition, GateResult> together = gate.evaluateAll(ds, Boundary.SOURCE, batch, checks, (id, p) -> new TreeMap<>());
        for (Partition p : days) {
            CheckResult one = check(together.get(p), "pair_unique");
            assertThat(one).as("partition %s", p).isEqualTo(check(alone.get(p), "pair_unique"));
            // 40 rows, 21 pairs (X mod 21): those of X mod 21 in 1..19 twice, so 38 rows share their pair; the
            // sample's first rows in pair order: (a, 0) is X = 21 alone, so (a, 1) (X = 15, 36), then (a, 2) (X = 9, 30)
            assertThat(one.unexpectedCount()).isEqualTo(38);
            assertThat(one.unexpectedValues()).hasSize(20).startsWith(Map.of("code", "a", "n", 1), Map.of("code", "a", "n", 1),
                    Map.of("code", "a", "n", 2), Map.of("code", "a", "n", 2));
        }
    }

    private static CheckResult check(GateResult r, String id) {
        return r.checks().stream().filter(c -> c.checkId().equals(id)).findFirst().orElseThrow();
    }

    private static CheckStatus status(SortedMap<Partition, GateResult> results, int day, String check) {
        return results.get(Partition.daily(LocalDate.of(2001, 1, day + 1))).checks().stream()
                .filter(c -> c.checkId().equals(check)).findFirst().orElseThrow().status();
    }
}
