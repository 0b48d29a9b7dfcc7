package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.testkit.TestHome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The growth measure's data: two real days ×3. DuckDB reads both sides: rows ×3, the distinct rows
 * ×3 (copies differ by their shifted time, exact duplicates stay duplicates), delays' sum ×3, each
 * copy k exactly k ms after its original; a second call keeps the files written.
 */
class FlightsScalerTest {

    @TempDir
    Path target;

    @Test
    void eachRowIsRepeatedWithItsTimeShiftedByItsCopyNumber() throws Exception {
        Path home = TestHome.withSampleData();
        LocalDate from = LocalDate.parse("2001-01-02");
        LocalDate to = LocalDate.parse("2001-01-03");
        FlightsScaler.Scaled scaled = FlightsScaler.scale(home, target, 3, from, to);
        String original = home.resolve("landing/flights/dt=*/flights.parquet").toString();
        String copies = target.resolve("landing/flights/dt=*/flights.parquet").toString();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            String days = " WHERE CAST(\"date\" AS DATE) BETWEEN DATE '" + from + "' AND DATE '" + to + "'";
            long[] o = longs(st, "SELECT COUNT(*), (SELECT COUNT(*) FROM (SELECT DISTINCT * FROM read_parquet('" + original + "')" + days
                    + ")), SUM(delay) FROM read_parquet('" + original + "')" + days);
            long[] s = longs(st, "SELECT COUNT(*), (SELECT COUNT(*) FROM (SELECT DISTINCT * FROM read_parquet('" + copies + "'))),"
                    + " SUM(delay) FROM read_parquet('" + copies + "')");
            assertThat(o[0]).isGreaterThan(30_000);
            assertThat(s).containsExactly(3 * o[0], 3 * o[1], 3 * o[2]);
            assertThat(scaled.rows()).isEqualTo(3 * o[0]);
            assertThat(scaled.days()).isEqualTo(2);
            // every copy's time minus its original's, to the millisecond: 0, 1 and 2 ms, once each per original row
            long[] shifts = longs(st, "SELECT COUNT(*) FILTER (WHERE ms = 0), COUNT(*) FILTER (WHERE ms = 1), COUNT(*) FILTER (WHERE ms = 2),"
                    + " COUNT(*) FILTER (WHERE ms > 2) FROM (SELECT epoch_ms(\"date\") % 1000 AS ms FROM read_parquet('" + copies + "'))");
            assertThat(shifts).containsExactly(o[0], o[0], o[0], 0L);
        }
        Path one = target.resolve("landing/flights/dt=2001-01-02/flights.parquet");
        var modified = Files.getLastModifiedTime(one);
        assertThat(FlightsScaler.scale(home, target, 3, from, to)).isEqualTo(scaled);
        assertThat(Files.getLastModifiedTime(one)).isEqualTo(modified);
        assertThat(target.resolve("landing/airports")).isSymbolicLink();
    }

    @Test
    void duckDbsMartsOfTheScaledDaysAreTheOriginalsScaled() throws Exception {
        Path home = TestHome.withSampleData();
        LocalDate from = LocalDate.parse("2001-01-04");
        LocalDate to = LocalDate.parse("2001-01-05");
        Path scaled = target.resolve("x2");
        FlightsScaler.scale(home, scaled, 2, from, to);
        Map<String, GrowthCheck.Mart> one = marts(home, target.resolve("w1"), from, to);
        Map<String, GrowthCheck.Mart> two = marts(scaled, target.resolve("w2"), from, to);
        assertThat(one.get("gold_airport_daily_delays").flights()).isGreaterThan(30_000);
        assertThat(two.get("gold_airport_monthly_delays").flights()).isEqualTo(2 * one.get("gold_airport_monthly_delays").flights());
        assertThat(GrowthCheck.martProblems(one, 1, two, 2)).isEmpty();
        assertThat(GrowthCheck.martProblems(one, 1, one, 2)).hasSize(3).allMatch(p -> p.contains(" flights: "));
    }

    private static Map<String, GrowthCheck.Mart> marts(Path home, Path work, LocalDate from, LocalDate to) throws Exception {
        Path run = BackfillBench.prepareHome(home, work, from, to);
        Path db = work.resolve("m.duckdb");
        DuckDbMedallion.run(run.resolve("bulk-landing/flights"), home.resolve("landing/airports/airports.csv"), db);
        return DuckDbMedallion.marts(db);
    }

    private static long[] longs(Statement st, String sql) throws Exception {
        try (ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            long[] out = new long[rs.getMetaData().getColumnCount()];
            for (int i = 0; i < out.length; i++) {
                out[i] = rs.getLong(i + 1);
            }
            return out;
        }
    }
}
