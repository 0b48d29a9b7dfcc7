package dev.sluice.batch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.batch.job.RunSummary;
import dev.sluice.batch.job.StepSummary;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.warehouse.Warehouse;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.core.Partition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Gold step whose SQL is wrong fails the run; after the SQL is fixed, a plain run restarts the
 * same attempt (same run id) from the failed step: Bronze and Silver are not run again, Bronze
 * gains no rows, and the run records the fixed spec's hash.
 */
class RestartFromFailedStepIT {

    @TempDir
    Path specDir;

    @Test
    void aFailedAttemptRestartsFromItsFailedStep() throws Exception {
        Path spec = TestHome.copyFlightsSpec(specDir);
        String good = TestHome.editSpec(spec, "MAX(delay_min) AS max_delay_min", "MAX(delay_minutes) AS max_delay_min");

        String url = TestHome.freshH2Url();
        var env = TestHome.environment(TestHome.withSampleData(), url, "sa", "");
        PipelineSpecLoader loader = new PipelineSpecLoader(env.interpolator());
        Partition p = Partition.daily(LocalDate.parse("2001-07-01"));
        PipelineSpec brokenSpec = loader.load(spec);
        try (Warehouse w = Warehouse.open(brokenSpec.warehouse())) {
            PipelineRunner runner = new PipelineRunner(w, TestHome.withSampleData());
            RunSummary failed = runner.run(brokenSpec, p, RunOptions.plain());
            assertThat(failed.status().name()).isEqualTo("FAILED");
            assertThat(failed.failure()).startsWith("step gold.airport_daily_delays failed:")
                    .containsIgnoringCase("delay_minutes");
            assertThat(failed.steps()).extracting(st -> st.status().name())
                    .containsExactly("COMPLETED", "COMPLETED", "COMPLETED", "COMPLETED", "COMPLETED", "COMPLETED", "FAILED");
            long bronzeAfterFailure = w.dsl().fetchCount(w.dsl().selectFrom("bronze.flights_raw"));

            Files.writeString(spec, good);
            PipelineSpec fixed = loader.load(spec);
            RunSummary restarted = runner.run(fixed, p, RunOptions.plain());
            assertThat(restarted.status().name()).isEqualTo("COMPLETED");
            assertThat(restarted.restarted()).isTrue();
            assertThat(restarted.attempt()).isZero();
            assertThat(restarted.runId()).isEqualTo(failed.runId());
            assertThat(restarted.steps()).extracting(StepSummary::step, StepSummary::earlierExecution).containsExactly(
                    org.assertj.core.groups.Tuple.tuple("bronze.airports_raw", true),
                    org.assertj.core.groups.Tuple.tuple("bronze.flights_raw", true),
                    org.assertj.core.groups.Tuple.tuple("gate.bronze.flights_raw", true),
                    org.assertj.core.groups.Tuple.tuple("silver.airports", true),
                    org.assertj.core.groups.Tuple.tuple("silver.flights", true),
                    org.assertj.core.groups.Tuple.tuple("gate.silver.flights", true),
                    org.assertj.core.groups.Tuple.tuple("gold.airport_daily_delays", false),
                    org.assertj.core.groups.Tuple.tuple("gate.gold.airport_daily_delays", false),
                    org.assertj.core.groups.Tuple.tuple("gold.route_daily", false),
                    org.assertj.core.groups.Tuple.tuple("gold.airport_monthly_delays", false));
            assertThat(w.dsl().fetchCount(w.dsl().selectFrom("bronze.flights_raw"))).isEqualTo(bronzeAfterFailure);
            assertThat(w.dsl().resultQuery("SELECT SUM(flights) FROM gold.airport_daily_delays WHERE _partition = ?",
                    "2001-07-01").fetchOne(0, Long.class)).isEqualTo(6L);
            assertThat(w.dsl().resultQuery("SELECT spec_hash FROM sluice.run WHERE run_id = ?",
                    restarted.runId().toString()).fetchOne(0, String.class))
                    .isEqualTo(fixed.hash()).isNotEqualTo(brokenSpec.hash());
        }
    }

    /**
     * A process killed after its job COMPLETED but before it recorded the run leaves the attempt
     * STARTED in sluice.run: the next run takes Spring Batch's record, marks the attempt COMPLETED
     * and refuses a plain re-run as for any completed partition.
     */
    @Test
    void anAttemptCompletedInSpringBatchButRecordedStartedIsReconciled() {
        PipelineSpec spec = TestHome.flightsSpec(TestHome.freshH2Url(), "sa", "");
        Partition p = Partition.daily(LocalDate.parse("2001-07-01"));
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            PipelineRunner runner = new PipelineRunner(w, TestHome.withSampleData());
            assertThat(runner.run(spec, p, RunOptions.plain()).status().name()).isEqualTo("COMPLETED");
            long deadPid = ProcessHandle.current().pid() + 1_000_000;
            assertThat(w.dsl().execute("UPDATE sluice.run SET status = 'STARTED', ended_at = NULL, pid = ?"
                    + " WHERE partition_key = ?", deadPid, p.key())).isEqualTo(1);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> runner.run(spec, p, RunOptions.plain()))
                    .isInstanceOf(dev.sluice.batch.job.PartitionCompletedException.class);
            assertThat(w.dsl().resultQuery("SELECT status FROM sluice.run WHERE partition_key = ?", p.key())
                    .fetchOne(0, String.class)).isEqualTo("COMPLETED");
        }
    }
}
