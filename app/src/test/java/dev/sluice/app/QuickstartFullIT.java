package dev.sluice.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.sluice.app.cli.SluiceCommand;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.SluiceEnvironment;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The whole quickstart (all 182 partitions, 3,000,000 rows) and every row of
 * gold.airport_daily_delays against DuckDB over the original file. Runs in {@code -Pfull} only
 * (about two minutes here); CI runs the three-date slice in FlightsLoadH2IT/PostgresIT.
 */
@EnabledIfSystemProperty(named = "sluice.full", matches = "true", disabledReason = "long: run with mvn -Pfull verify")
class QuickstartFullIT {

    @Test
    void quickstartLoadsEveryPartitionAndGoldMatchesDuckDb() throws Exception {
        String url = TestHome.freshH2Url();
        Map<String, String> env = new HashMap<>(Map.of("SLUICE_HOME", TestHome.withSampleData().toString(),
                "SLUICE_WAREHOUSE_URL", url, "SLUICE_PIPELINES", TestHome.projectRoot().resolve("pipelines").toString()));
        StringWriter out = new StringWriter();
        int code = SluiceCommand.execute(new SluiceEnvironment(env), new PrintWriter(out, true),
                new PrintWriter(new StringWriter(), true), "quickstart");
        assertThat(code).as(out.toString()).isZero();
        assertThat(out.toString()).containsPattern("total +3,000,000 +3,000,000 +2,999,806 +191 +3 ")
                .containsPattern("\\n[0-9,]+ warning\\(s\\) printed above; each in full, with its run and partition, in ")
                .contains("the full log of every run: " + TestHome.withSampleData().resolve("logs/sluice.log") + "\n");

        String reference = """
                WITH ap AS (SELECT iata FROM read_csv(?, header = true, all_varchar = true)),
                good AS (SELECT DISTINCT "date", delay, distance, origin, destination FROM read_parquet(?)
                         WHERE delay BETWEEN -120 AND 2880 AND distance > 0
                           AND origin IN (SELECT iata FROM ap) AND destination IN (SELECT iata FROM ap))
                SELECT CAST("date" AS DATE) AS d, origin, COUNT(*), SUM(CASE WHEN delay >= 15 THEN 1 ELSE 0 END),
                       CAST(SUM(delay) AS DOUBLE) / COUNT(*), MAX(delay), SUM(distance)
                FROM good GROUP BY ALL ORDER BY d, origin
                """;
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
             PreparedStatement ps = duck.prepareStatement(reference);
             Connection h2 = DriverManager.getConnection(url, "sa", "");
             PreparedStatement q = h2.prepareStatement("SELECT flight_date, origin, flights, delayed_15, avg_delay_min,"
                     + " max_delay_min, total_distance_mi FROM gold.airport_daily_delays ORDER BY flight_date, origin")) {
            ps.setString(1, TestHome.originalAirports().toString());
            ps.setString(2, TestHome.originalFlights().toString());
            int rows = 0;
            try (ResultSet e = ps.executeQuery(); ResultSet a = q.executeQuery()) {
                while (e.next()) {
                    assertThat(a.next()).as("gold has a row for %s %s", e.getDate(1), e.getString(2)).isTrue();
                    assertThat(a.getDate(1).toLocalDate()).isEqualTo(e.getDate(1).toLocalDate());
                    assertThat(a.getString(2)).isEqualTo(e.getString(2));
                    for (int c : new int[] {3, 4, 6, 7}) {
                        assertThat(a.getLong(c)).as("column %d of %s %s", c, e.getDate(1), e.getString(2)).isEqualTo(e.getLong(c));
                    }
                    assertThat(a.getDouble(5)).isCloseTo(e.getDouble(5), within(Math.abs(e.getDouble(5)) * 1e-9 + 1e-12));
                    rows++;
                }
                assertThat(a.next()).as("gold has no extra rows").isFalse();
            }
            assertThat(rows).as("(date, origin) rows").isEqualTo(39_952);
        }
    }
}
