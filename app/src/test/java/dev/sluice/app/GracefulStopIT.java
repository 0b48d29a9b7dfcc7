package dev.sluice.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.app.cli.ExitCodes;
import dev.sluice.app.cli.SluiceCommand;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.warehouse.Warehouse;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.SluiceEnvironment;
import dev.sluice.core.Partition;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * SIGTERM in the middle of a Bronze load (the second chunk of 5,000 rows written, not committed):
 * the run ends that chunk, stops at the chunk boundary, is recorded STOPPED and exits 4; a plain
 * run resumes after the two committed chunks and leaves what an uninterrupted run leaves.
 */
class GracefulStopIT {

    private static final Partition DAY = new Partition("2001-02-22");

    private static Map<String, String> env(String url) {
        return Map.of("SLUICE_HOME", TestHome.withSampleData().toString(), "SLUICE_WAREHOUSE_URL", url,
                "SLUICE_PIPELINES", TestHome.projectRoot().resolve("pipelines").toString(), "SLUICE_BATCH_ROWS", "5000");
    }

    private static int runInProcess(String url) {
        return SluiceCommand.execute(new SluiceEnvironment(env(url)), new PrintWriter(new StringWriter(), true),
                new PrintWriter(new StringWriter(), true), "run", "flights", "--partition", DAY.key());
    }

    @Test
    void sigtermEndsTheChunkRecordsStoppedAndARestartResumesAfterIt() throws Exception {
        String url = TestHome.freshH2Url();
        FaultPointKill.Stopped stopped = FaultPointKill.stopAt("bronze-chunk:bronze.flights_raw#2", env(url),
                "run", "flights", "--partition", DAY.key());
        assertThat(stopped.exitCode()).as(stopped.output()).isEqualTo(ExitCodes.STOPPED);
        assertThat(stopped.output()).contains("the process received SIGTERM and is shutting down");
        PipelineSpec spec = TestHome.flightsSpec(url, "sa", "");
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            assertThat(w.dsl().resultQuery("SELECT status || ': ' || exit_message FROM sluice.run").fetch(0, String.class))
                    .containsExactly("STOPPED: stopped: the process received SIGTERM and is shutting down (a plain run restarts it"
                            + " from the stopped step)");
            assertThat(w.dsl().fetchCount(w.dsl().selectFrom("bronze.flights_raw"))).as("the chunk in flight was ended").isEqualTo(10_000);
        }

        assertThat(runInProcess(url)).isZero();
        String reference = TestHome.freshH2Url();
        assertThat(runInProcess(reference)).isZero();
        assertThat(CrashPointsIT.checksums(url)).isEqualTo(CrashPointsIT.checksums(reference));
        assertThat(CrashPointsIT.checksums(url).get("bronze rows")).isEqualTo("16565");
    }
}
