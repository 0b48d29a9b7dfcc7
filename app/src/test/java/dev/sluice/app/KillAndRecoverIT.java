package dev.sluice.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.app.cli.SluiceCommand;
import dev.sluice.batch.testkit.DuckDbReference;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.SluiceEnvironment;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.LocalDate;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * kill -9 in the middle of a range run, then the same command again: the attempt the dead process
 * left STARTED is recovered and restarted, every partition completes, and Bronze holds each source
 * row exactly once.
 */
class KillAndRecoverIT {

    @Test
    void aKilledRunIsRecoveredByTheNextRun() throws Exception {
        // WRITE_DELAY=0: H2 flushes each commit at once (its default delays up to 500 ms), so the
        // database holds exactly what the killed process had committed.
        String url = TestHome.freshH2Url() + ";WRITE_DELAY=0";
        String home = TestHome.withSampleData().toString();
        ProcessBuilder pb = new ProcessBuilder("bash", TestHome.projectRoot().resolve("sluice").toString(),
                "run", "flights", "--from", "2001-03-01", "--to", "2001-03-05").redirectErrorStream(true);
        pb.environment().put("SLUICE_HOME", home);
        pb.environment().put("SLUICE_WAREHOUSE_URL", url);
        // pause (and be killed) as the second partition's Bronze step starts
        pb.environment().put("SLUICE_FAULT_PAUSE", "before:bronze.flights_raw#2");
        Process p = pb.start();
        String seen = null;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                if (line.endsWith("SLUICE-FAULT-PAUSE before:bronze.flights_raw#2")) {
                    seen = line;
                    p.destroyForcibly();
                    break;
                }
            }
        }
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(seen).as("the child reached the second partition's Bronze step").isNotNull();
        assertThat(p.exitValue()).isEqualTo(137);
        String orphan = "2001-03-02";
        try (Connection c = DriverManager.getConnection(url, "sa", "");
             ResultSet rs = c.createStatement().executeQuery(
                     "SELECT partition_key, status FROM sluice.run WHERE status <> 'COMPLETED'")) {
            assertThat(rs.next()).as("an attempt is left unfinished").isTrue();
            assertThat(rs.getString(1)).isEqualTo(orphan);
            assertThat(rs.getString(2)).isEqualTo("STARTED");
            assertThat(rs.next()).isFalse();
        }

        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = SluiceCommand.execute(new SluiceEnvironment(Map.of("SLUICE_HOME", home, "SLUICE_WAREHOUSE_URL", url,
                        "SLUICE_PIPELINES", TestHome.projectRoot().resolve("pipelines").toString())),
                new PrintWriter(out, true), new PrintWriter(err, true), "run", "flights", "--from", "2001-03-01", "--to", "2001-03-05");
        assertThat(code).as(out + "\n" + err).isZero();
        assertThat(out.toString()).containsPattern(orphan + " +COMPLETED").containsPattern("2001-03-05 +COMPLETED")
                .doesNotContain("FAILED").doesNotContain("REFUSED");
        try (Connection c = DriverManager.getConnection(url, "sa", "");
             ResultSet rs = c.createStatement().executeQuery(
                     "SELECT COUNT(*) FROM sluice.run WHERE status = 'COMPLETED' AND attempt = 0")) {
            rs.next();
            assertThat(rs.getLong(1)).as("every partition completed its attempt 0").isEqualTo(5);
        }

        long raw = 0;
        for (LocalDate d = LocalDate.parse("2001-03-01"); !d.isAfter(LocalDate.parse("2001-03-05")); d = d.plusDays(1)) {
            raw += DuckDbReference.rawRows(TestHome.originalFlights(), d);
        }
        try (Connection c = DriverManager.getConnection(url, "sa", "");
             ResultSet rs = c.createStatement().executeQuery(
                     "SELECT COUNT(*), COUNT(DISTINCT _source || ':' || _source_pos) FROM bronze.flights_raw")) {
            rs.next();
            assertThat(rs.getLong(1)).as("Bronze rows").isEqualTo(raw);
            assertThat(rs.getLong(2)).as("distinct source positions").isEqualTo(raw);
        }
    }
}
