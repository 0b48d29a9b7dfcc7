package dev.sluice.quality;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.CheckSpec;
import dev.sluice.config.Expectation;
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
            assertThat(List.of(noValues.status(), noValues.elementCount())).containsExactly(CheckStatus.PASSED, 0L);

            CheckResult mean = check(url, "SELECT * FROM v WHERE 1 = 0", new CheckSpec("m",
                    Expectation.EXPECT_COLUMN_MEAN_TO_BE_BETWEEN, Severity.ERROR, null, "n", Map.of("min_value", 0)));
            assertThat(mean.status()).isEqualTo(CheckStatus.FAILED);
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
}
