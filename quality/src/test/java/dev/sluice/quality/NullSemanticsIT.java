package dev.sluice.quality;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.CheckSpec;
import dev.sluice.config.Expectation;
import dev.sluice.config.NoDataPolicy;
import dev.sluice.config.Severity;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.Partition;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The documented NULL and empty semantics of the gate, on a real warehouse (H2) and Spark: NULLs
 * ignored by default, unexpected on request; a map check over no values passes; an aggregate over
 * no values fails; an empty partition has row count 0.
 */
class NullSemanticsIT {

    private final QualityGate gate = QualityGate.deequ("local[2]");

    private CheckResult check(String url, String query, CheckSpec spec) {
        PartitionSource source = new PartitionSource.JdbcQuery(url, "sa", "", query, "id", null);
        return gate.evaluate(DatasetRef.parse("t.v"), Partition.NONE, Boundary.TRANSFORM, source, List.of(spec), MetricHistory.NONE)
                .checks().get(0);
    }

    @Test
    void nullsAreIgnoredUnlessDeclaredUnexpectedAndEmptyDataIsJudgedAsDocumented() throws Exception {
        String url = "jdbc:h2:mem:nulls-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE v (id BIGINT, code VARCHAR(10), n INTEGER)");
            st.execute("INSERT INTO v VALUES (0, 'a', 1), (1, NULL, NULL), (2, 'b', 3), (3, 'x', NULL)");
            Map<String, Object> set = Map.of("value_set", List.of("a", "b"));
            CheckResult ignored = check(url, "SELECT * FROM v", new CheckSpec("c", Expectation.EXPECT_COLUMN_VALUES_TO_BE_IN_SET,
                    Severity.WARN, null, "code", set));
            assertThat(List.of(ignored.status(), ignored.elementCount(), ignored.unexpectedCount(), ignored.unexpectedValues(),
                    ignored.unexpectedRowIds())).containsExactly(CheckStatus.WARNED, 3L, 1L, List.of("x"), List.of(3L));
            assertThat(ignored.metric()).isEqualTo(2.0 / 3);

            CheckResult strict = check(url, "SELECT * FROM v", new CheckSpec("c", Expectation.EXPECT_COLUMN_VALUES_TO_BE_IN_SET,
                    Severity.ERROR, 0.5, "code", Map.of("value_set", List.of("a", "b"), "null_values", "unexpected")));
            assertThat(List.of(strict.status(), strict.elementCount(), strict.unexpectedCount())).containsExactly(CheckStatus.PASSED, 4L, 2L);
            assertThat(strict.unexpectedValues()).containsExactlyInAnyOrder(null, "x");

            CheckResult noValues = check(url, "SELECT * FROM v WHERE code IS NULL", new CheckSpec("c",
                    Expectation.EXPECT_COLUMN_VALUES_TO_MATCH_REGEX, Severity.ERROR, null, "code", Map.of("regex", "^[a-z]$")));
            assertThat(List.of(noValues.status(), noValues.elementCount(), noValues.stops())).containsExactly(CheckStatus.NO_DATA, 0L, false);

            CheckResult mean = check(url, "SELECT * FROM v WHERE 1 = 0", new CheckSpec("m",
                    Expectation.EXPECT_COLUMN_MEAN_TO_BE_BETWEEN, Severity.ERROR, null, "n", Map.of("min_value", 0)));
            assertThat(List.of(mean.status(), mean.stops())).containsExactly(CheckStatus.NO_DATA, true);
            assertThat(mean.metric()).isNull();

            CheckResult rows = check(url, "SELECT * FROM v WHERE 1 = 0", new CheckSpec("r",
                    Expectation.EXPECT_TABLE_ROW_COUNT_TO_BE_BETWEEN, Severity.WARN, null, null, Map.of("min_value", 1)));
            assertThat(List.of(rows.status(), rows.observedValue())).containsExactly(CheckStatus.WARNED, 0L);

            // a comparison that is NULL for every value (a number against text) measures 0: it fails, it never passes
            CheckResult nullComparison = check(url, "SELECT * FROM v", new CheckSpec("c", Expectation.EXPECT_COLUMN_VALUES_TO_BE_BETWEEN,
                    Severity.WARN, null, "code", Map.of("min_value", 5)));
            assertThat(List.of(nullComparison.status(), nullComparison.unexpectedCount())).containsExactly(CheckStatus.WARNED, 3L);

            CheckResult meanOfSome = check(url, "SELECT * FROM v", new CheckSpec("m",
                    Expectation.EXPECT_COLUMN_MEAN_TO_BE_BETWEEN, Severity.ERROR, null, "n", Map.of("min_value", 1.5, "max_value", 2.5)));
            assertThat(List.of(meanOfSome.status(), meanOfSome.observedValue())).containsExactly(CheckStatus.PASSED, 2.0);
        }
    }

    /**
     * Issue 51 item 6: the pair checks treat NULL as GE's Spark backend does ({@code eqNullSafe} in
     * {@code column_pair_values.equal} and {@code .in_set}): {@code [6, NULL]} is an unequal pair and a
     * pair outside the set; the order {@code A > B} with a NULL is NULL and not unexpected. The data
     * is GE's own ({@code expect_column_pair_values_to_be_equal.json}, {@code ..._in_set.json}).
     */
    @Test
    void pairEqualityAndPairSetsCompareNullSafeAsGesSparkBackend() throws Exception {
        String url = "jdbc:h2:mem:pairs-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE p (id BIGINT, w INTEGER, x INTEGER, z INTEGER)");
            st.execute("INSERT INTO p VALUES (0, 1, 1, 1), (1, 2, 2, 2), (2, 3, 3, 3), (3, 4, 4, 4), (4, 5, 5, 5),"
                    + " (5, 6, 6, NULL), (6, 7, 7, NULL), (7, 8, 8, NULL), (8, 9, 9, NULL), (9, NULL, 10, NULL)");
            String all = "SELECT * FROM p";
            List<Object> sixToNine = List.of(java.util.Arrays.asList(6, null), java.util.Arrays.asList(7, null),
                    java.util.Arrays.asList(8, null), java.util.Arrays.asList(9, null));

            // ignore_row_if both_values_are_missing (the default): row 9 skipped, rows 5-8 unequal
            CheckResult equal = check(url, all, new CheckSpec("e", Expectation.EXPECT_COLUMN_PAIR_VALUES_TO_BE_EQUAL,
                    Severity.ERROR, null, null, Map.of("column_A", "w", "column_B", "z")));
            assertThat(List.of(equal.status(), equal.elementCount(), equal.unexpectedCount())).containsExactly(CheckStatus.FAILED, 9L, 4L);
            assertThat(equal.unexpectedValues()).containsExactlyElementsOf(sixToNine);
            assertThat(equal.unexpectedRowIds()).containsExactly(5L, 6L, 7L, 8L);
            assertThat(equal.metric()).isEqualTo(5.0 / 9);

            CheckResult mostly = check(url, all, new CheckSpec("e", Expectation.EXPECT_COLUMN_PAIR_VALUES_TO_BE_EQUAL,
                    Severity.ERROR, 0.5, null, Map.of("column_A", "w", "column_B", "z")));
            assertThat(List.of(mostly.status(), mostly.unexpectedCount())).containsExactly(CheckStatus.PASSED, 4L);
            assertThat(mostly.unexpectedValues()).containsExactlyElementsOf(sixToNine);

            CheckResult either = check(url, all, new CheckSpec("e", Expectation.EXPECT_COLUMN_PAIR_VALUES_TO_BE_EQUAL,
                    Severity.ERROR, null, null, Map.of("column_A", "w", "column_B", "z", "ignore_row_if", "either_value_is_missing")));
            assertThat(List.of(either.status(), either.elementCount(), either.unexpectedCount())).containsExactly(CheckStatus.PASSED, 5L, 0L);
            // neither: two NULLs are equal
            CheckResult neither = check(url, "SELECT * FROM p WHERE id = 9", new CheckSpec("e", Expectation.EXPECT_COLUMN_PAIR_VALUES_TO_BE_EQUAL,
                    Severity.ERROR, null, null, Map.of("column_A", "w", "column_B", "z", "ignore_row_if", "neither")));
            assertThat(List.of(neither.status(), neither.elementCount(), neither.unexpectedCount())).containsExactly(CheckStatus.PASSED, 1L, 0L);

            CheckResult inSet = check(url, all, new CheckSpec("s", Expectation.EXPECT_COLUMN_PAIR_VALUES_TO_BE_IN_SET,
                    Severity.ERROR, null, null, Map.of("column_A", "x", "column_B", "z", "value_pairs_set",
                            List.of(List.of(1, 1), List.of(2, 2), List.of(3, 3), List.of(4, 4), List.of(5, 5), List.of(6, 6)))));
            // [6, NULL] is not the set's [6, 6] (a plain comparison was NULL there, and passed)
            assertThat(List.of(inSet.status(), inSet.elementCount(), inSet.unexpectedCount())).containsExactly(CheckStatus.FAILED, 10L, 5L);
            assertThat(inSet.unexpectedRowIds()).containsExactly(5L, 6L, 7L, 8L, 9L);
            assertThat(inSet.unexpectedValues()).containsExactly(java.util.Arrays.asList(6, null), java.util.Arrays.asList(7, null),
                    java.util.Arrays.asList(8, null), java.util.Arrays.asList(9, null), java.util.Arrays.asList(10, null));

            // the order: x > z is NULL in rows 5-9, not unexpected (as in GE's Spark backend)
            CheckResult greater = check(url, "SELECT id, x + 1 AS x, z FROM p", new CheckSpec("g",
                    Expectation.EXPECT_COLUMN_PAIR_VALUES_A_TO_BE_GREATER_THAN_B, Severity.ERROR, null, null, Map.of("column_A", "x", "column_B", "z")));
            assertThat(List.of(greater.status(), greater.elementCount(), greater.unexpectedCount())).containsExactly(CheckStatus.PASSED, 10L, 0L);

            // the compound uniqueness judges the rows with a value in a listed column: 9, the all-NULL row 9 left out (GE's
            // element count less its missing rows; Sluice counted 10 before)
            CheckResult compound = check(url, all, new CheckSpec("u", Expectation.EXPECT_COMPOUND_COLUMNS_TO_BE_UNIQUE,
                    Severity.ERROR, null, null, Map.of("column_list", List.of("w", "z"))));
            assertThat(List.of(compound.status(), compound.elementCount(), compound.unexpectedCount())).containsExactly(CheckStatus.PASSED, 9L, 0L);
        }
    }

    /**
     * Issue 51 item 7: a NULL in {@code value_set} (GE's {@code positive_test_values_set_is_null},
     * {@code expect_column_values_to_not_be_in_set.json}) matches no value; the NULLs follow
     * {@code null_values}. It used to throw a NullPointerException without a message.
     */
    @Test
    void aNullInTheValueSetMatchesNoValue() throws Exception {
        String url = "jdbc:h2:mem:nullset-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE n (id BIGINT, n INTEGER)");
            st.execute("INSERT INTO n VALUES (0, NULL), (1, NULL), (2, 2)");
            List<Object> nullOnly = java.util.Arrays.asList((Object) null);
            CheckResult notIn = check(url, "SELECT * FROM n", new CheckSpec("s", Expectation.EXPECT_COLUMN_VALUES_TO_NOT_BE_IN_SET,
                    Severity.ERROR, null, "n", Map.of("value_set", nullOnly)));
            assertThat(List.of(notIn.status(), notIn.elementCount(), notIn.unexpectedCount())).containsExactly(CheckStatus.PASSED, 1L, 0L);
            CheckResult notInStrict = check(url, "SELECT * FROM n", new CheckSpec("s", Expectation.EXPECT_COLUMN_VALUES_TO_NOT_BE_IN_SET,
                    Severity.ERROR, null, "n", Map.of("value_set", nullOnly, "null_values", "unexpected")));
            assertThat(List.of(notInStrict.status(), notInStrict.elementCount(), notInStrict.unexpectedCount()))
                    .containsExactly(CheckStatus.FAILED, 3L, 2L);
            CheckResult in = check(url, "SELECT * FROM n", new CheckSpec("s", Expectation.EXPECT_COLUMN_VALUES_TO_BE_IN_SET,
                    Severity.ERROR, null, "n", Map.of("value_set", java.util.Arrays.asList(null, 3))));
            assertThat(List.of(in.status(), in.elementCount(), in.unexpectedCount(), in.unexpectedValues()))
                    .containsExactly(CheckStatus.FAILED, 1L, 1L, List.of(2));
        }
    }

    /** No data is not a pass: NO_DATA, blocking where the check's no_data policy (or its default) says so. */
    @Test
    void noDataIsItsOwnStatusAndBlocksWhereTheCheckSaysSo() throws Exception {
        String url = "jdbc:h2:mem:nodata-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE v (id BIGINT, code VARCHAR(10), n INTEGER, d DATE)");
            st.execute("INSERT INTO v VALUES (0, 'a', NULL, NULL), (1, 'b', NULL, NULL), (2, 'c', 7, NULL)");
            String allNull = "SELECT * FROM v WHERE n IS NULL";
            String empty = "SELECT * FROM v WHERE 1 = 0";
            Map<String, Object> between = Map.of("min_value", 0, "max_value", 10);

            // a column-value check on an all-NULL column: no data, allowed by default (GE: vacuously true), blocking on request
            CheckResult betweenAllNull = check(url, allNull, new CheckSpec("b", Expectation.EXPECT_COLUMN_VALUES_TO_BE_BETWEEN,
                    Severity.ERROR, null, "n", between));
            assertThat(List.of(betweenAllNull.status(), betweenAllNull.elementCount(), betweenAllNull.stops(), betweenAllNull.message()))
                    .containsExactly(CheckStatus.NO_DATA, 0L, false,
                            "no values to judge: n is NULL in all 2 row(s); the partition goes on (no_data: allow)");
            assertThat(betweenAllNull.metric()).isNull();
            CheckResult betweenBlocking = check(url, allNull, new CheckSpec("b", Expectation.EXPECT_COLUMN_VALUES_TO_BE_BETWEEN,
                    Severity.ERROR, null, "n", between, NoDataPolicy.BLOCK));
            assertThat(List.of(betweenBlocking.status(), betweenBlocking.stops(), betweenBlocking.message())).containsExactly(CheckStatus.NO_DATA,
                    true, "no values to judge: n is NULL in all 2 row(s); blocks (no_data: block)");
            // a warn check never blocks, whatever its policy
            CheckResult warnBlocking = check(url, allNull, new CheckSpec("b", Expectation.EXPECT_COLUMN_VALUES_TO_BE_BETWEEN,
                    Severity.WARN, null, "n", between, NoDataPolicy.BLOCK));
            assertThat(List.of(warnBlocking.status(), warnBlocking.stops(), warnBlocking.message())).containsExactly(CheckStatus.NO_DATA, false,
                    "no values to judge: n is NULL in all 2 row(s); the partition goes on (a warn check never blocks)");

            // completeness on an empty table: no data, not a pass with a null metric
            CheckResult complete = check(url, empty, new CheckSpec("c", Expectation.EXPECT_COLUMN_VALUES_TO_NOT_BE_NULL,
                    Severity.ERROR, null, "code", Map.of()));
            assertThat(List.of(complete.status(), complete.stops(), complete.message()))
                    .containsExactly(CheckStatus.NO_DATA, false, "no rows to judge; the partition goes on (no_data: allow)");

            // aggregates over no values: no data, blocking by default (GE: false), allowed on request
            CheckResult sum = check(url, allNull, new CheckSpec("s", Expectation.EXPECT_COLUMN_SUM_TO_BE_BETWEEN,
                    Severity.ERROR, null, "n", Map.of("max_value", 10)));
            assertThat(List.of(sum.status(), sum.stops(), sum.elementCount())).containsExactly(CheckStatus.NO_DATA, true, 2L);
            CheckResult sumAllowed = check(url, allNull, new CheckSpec("s", Expectation.EXPECT_COLUMN_SUM_TO_BE_BETWEEN,
                    Severity.ERROR, null, "n", Map.of("max_value", 10), NoDataPolicy.ALLOW));
            assertThat(List.of(sumAllowed.status(), sumAllowed.stops())).containsExactly(CheckStatus.NO_DATA, false);
            CheckResult minDate = check(url, "SELECT * FROM v", new CheckSpec("d", Expectation.EXPECT_COLUMN_MIN_TO_BE_BETWEEN,
                    Severity.ERROR, null, "d", Map.of("min_value", "2001-01-01")));
            assertThat(List.of(minDate.status(), minDate.stops())).containsExactly(CheckStatus.NO_DATA, true);
            CheckResult stdevOfOne = check(url, "SELECT * FROM v", new CheckSpec("sd", Expectation.EXPECT_COLUMN_STDEV_TO_BE_BETWEEN,
                    Severity.ERROR, null, "n", Map.of("max_value", 1)));
            assertThat(List.of(stdevOfOne.status(), stdevOfOne.message())).containsExactly(CheckStatus.NO_DATA,
                    "no standard deviation: 1 non-null value(s), at least 2 needed; blocks (no_data: block)");
            CheckResult metric = check(url, allNull, new CheckSpec("m", Expectation.EXPECT_METRIC_TO_BE_BETWEEN,
                    Severity.ERROR, null, "n", Map.of("metric", "maximum", "max_value", 10)));
            assertThat(List.of(metric.status(), metric.stops())).containsExactly(CheckStatus.NO_DATA, true);
            // the compound uniqueness with every listed column NULL: no data, allowed (GE: vacuously true)
            CheckResult pair = check(url, allNull, new CheckSpec("p", Expectation.EXPECT_COMPOUND_COLUMNS_TO_BE_UNIQUE,
                    Severity.ERROR, null, null, Map.of("column_list", List.of("n", "d"))));
            assertThat(List.of(pair.status(), pair.stops())).containsExactly(CheckStatus.NO_DATA, false);

            // an anomaly check whose metric has no value: no data, not a failure, also without history
            CheckResult anomaly = check(url, allNull, new CheckSpec("a", Expectation.EXPECT_METRIC_TO_NOT_BE_ANOMALOUS,
                    Severity.ERROR, null, "n", Map.of("metric", "mean"), NoDataPolicy.ALLOW));
            assertThat(List.of(anomaly.status(), anomaly.stops(), anomaly.message()))
                    .containsExactly(CheckStatus.NO_DATA, false, "no values to measure; the partition goes on (no_data: allow)");

            // a row check whose columns Spark cannot compare (validate refuses it; the gate still answers, never a crash)
            st.execute("CREATE TABLE w (id BIGINT, flag BOOLEAN, ts TIMESTAMP)");
            st.execute("INSERT INTO w VALUES (1, TRUE, TIMESTAMP '2021-01-01 00:00:00')");
            CheckResult incomparable = check(url, "SELECT * FROM w", new CheckSpec("p", Expectation.EXPECT_COLUMN_PAIR_VALUES_A_TO_BE_GREATER_THAN_B,
                    Severity.WARN, null, null, Map.of("column_A", "flag", "column_B", "ts")));
            assertThat(incomparable.status()).isEqualTo(CheckStatus.WARNED);
            assertThat(incomparable.message()).startsWith("cannot measure: ");

            // the gate: only the blocking NO_DATA stops the partition
            PartitionSource source = new PartitionSource.JdbcQuery(url, "sa", "", allNull, "id", null);
            GateResult allowed = gate.evaluate(DatasetRef.parse("t.v"), Partition.NONE, Boundary.TRANSFORM, source,
                    List.of(new CheckSpec("b", Expectation.EXPECT_COLUMN_VALUES_TO_BE_BETWEEN, Severity.ERROR, null, "n", between),
                            new CheckSpec("s", Expectation.EXPECT_COLUMN_SUM_TO_BE_BETWEEN, Severity.WARN, null, "n", Map.of("max_value", 10))),
                    MetricHistory.NONE);
            assertThat(allowed.passed()).isTrue();
            GateResult blocked = gate.evaluate(DatasetRef.parse("t.v"), Partition.NONE, Boundary.TRANSFORM, source,
                    List.of(new CheckSpec("s", Expectation.EXPECT_COLUMN_SUM_TO_BE_BETWEEN, Severity.ERROR, null, "n", Map.of("max_value", 10))),
                    MetricHistory.NONE);
            assertThat(blocked.passed()).isFalse();
        }
    }
}
