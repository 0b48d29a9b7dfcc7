package dev.sluice.app.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.testkit.TestHome;
import dev.sluice.warehouse.Warehouse;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jooq.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGTERM to a scheduler whose load is between two steps: the load is stopped at that boundary and
 * recorded STOPPED, the scheduler exits 0, and the next scheduler to start resumes that partition
 * from its stopped step (same attempt, same run id).
 */
class SchedulerShutdownIT {

    @TempDir
    Path home;

    private static final PipelineScheduler.Settings FAST = new PipelineScheduler.Settings(2, 500, 1_000);

    @Test
    void aLoadStoppedByShutdownIsResumedByTheNextScheduler() throws Exception {
        Path specFile = TicksPipeline.write(home, "per_fire", "cron: \"0/2 * * * * ?\", time_zone: UTC", 2);
        String url = TestHome.freshH2Url();
        Map<String, String> env = Map.of("SLUICE_HOME", home.toString(), "SLUICE_WAREHOUSE_URL", url,
                "SLUICE_PIPELINES", specFile.getParent().toString());
        var stopped = dev.sluice.app.FaultPointKill.stopAt("before:silver.ticks", env, "scheduler", "--pipeline", "ticks");
        assertThat(stopped.exitCode()).as(stopped.output()).isZero();
        assertThat(stopped.output()).contains("stopping; running loads end their chunk and are recorded STOPPED");

        PipelineSpecLoader loader = new PipelineSpecLoader(TestHome.environment(home, url, "sa", "").interpolator());
        PipelineSpec spec = loader.load(specFile);
        try (Warehouse w = Warehouse.open(spec.warehouse(), 12)) {
            List<Record> runs = List.copyOf(w.dsl().resultQuery("SELECT partition_key, run_id, status, exit_message FROM sluice.run").fetch());
            assertThat(runs).singleElement().satisfies(r -> {
                assertThat(r.get("STATUS", String.class)).isEqualTo("STOPPED");
                assertThat(r.get("EXIT_MESSAGE", String.class)).contains("the process received SIGTERM and is shutting down");
            });
            String partition = runs.get(0).get("PARTITION_KEY", String.class);
            String runId = runs.get(0).get("RUN_ID", String.class);
            String latest = "SELECT status FROM sluice.run WHERE partition_key = '" + partition + "'";
            try (PipelineScheduler next = new PipelineScheduler(w, home, name -> loader.load(specFile), FAST)) {
                next.schedule(spec);
                next.start();
                Waits.until("the stopped partition resumed", Duration.ofSeconds(60),
                        () -> "COMPLETED".equals(w.dsl().resultQuery(latest).fetchOne(0, String.class)));
            }
            assertThat(w.dsl().resultQuery("SELECT run_id || ' ' || attempt FROM sluice.run WHERE partition_key = ?", partition)
                    .fetch(0, String.class)).as("the same attempt, resumed").containsExactly(runId + " 0");
            assertThat(w.dsl().resultQuery("SELECT COUNT(*) FROM sluice.published_partition WHERE dataset = 'gold.tick_weight'")
                    .fetchOne(0, Integer.class)).isEqualTo(1);
        }
    }
}
