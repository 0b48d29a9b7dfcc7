package dev.sluice.batch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunControl;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.batch.job.RunSummary;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.warehouse.Warehouse;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.core.Partition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Retries, step timeouts and cancel requests on the real flights data: a lock held by another
 * transaction makes a step fail with a retriable error, which is retried after its backoff and
 * completes; a division by zero is not retried; a step past its timeout, and a step cancelled by
 * request, are stopped (their statement cancelled), recorded STOPPED, and resume from that step.
 */
class RunControlIT {

    private static final Partition DAY = new Partition("2001-01-02");
    /** The SQL of gold.route_daily as flights.yaml writes it. */
    private static final String ROUTES = String.join("\n",
            "        SELECT flight_date,",
            "               origin,",
            "               destination,",
            "               COUNT(*) AS flights,",
            "               CAST(SUM(delay_min) AS DOUBLE PRECISION) / COUNT(*) AS avg_delay_min",
            "        FROM {input} s",
            "        GROUP BY flight_date, origin, destination");
    /** gold.route_daily, made slow: every flight of the day against every later-or-equal delay (~140 M pairs). */
    private static final String SLOW_ROUTES = String.join("\n",
            "        SELECT s.flight_date, s.origin, s.destination, COUNT(*) AS flights,",
            "               CAST(SUM(s.delay_min) AS DOUBLE PRECISION) / COUNT(*) AS avg_delay_min",
            "        FROM {input} s JOIN {input} s2 ON s2.delay_min >= s.delay_min",
            "        GROUP BY s.flight_date, s.origin, s.destination");

    @TempDir
    Path specDir;

    private PipelineSpec spec(String url, String original, String replacement, String execution) throws Exception {
        Path file = specDir.resolve("flights.yaml");
        if (!Files.exists(file)) {
            TestHome.copyFlightsSpec(specDir);
        }
        String text = Files.readString(TestHome.projectRoot().resolve("pipelines/flights.yaml"));
        assertThat(text).contains(original);
        Files.writeString(file, text.replace(original, replacement) + "\nexecution:\n" + execution);
        return new PipelineSpecLoader(TestHome.environment(TestHome.withSampleData(), url, "sa", "").interpolator()).load(file);
    }

    @Test
    void aLockTimeoutIsRetriedAfterItsBackoffAndADivisionByZeroIsNot() throws Exception {
        String url = TestHome.freshH2Url() + ";LOCK_TIMEOUT=300";
        PipelineSpec spec = spec(url, ROUTES, ROUTES, "  retry: {max_attempts: 3, backoff: PT0.05S, multiplier: 2}\n");
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            List<String> retries = new CopyOnWriteArrayList<>();
            PipelineRunner runner = new PipelineRunner(w, TestHome.withSampleData());
            assertThat(runner.run(spec, DAY, RunOptions.plain()).status().name()).isEqualTo("COMPLETED");
            try (Connection blocker = DriverManager.getConnection(url, "sa", "")) {
                // another transaction holds the published row that the re-run of gold.route_daily replaces
                blocker.setAutoCommit(false);
                assertThat(blocker.createStatement().executeUpdate("UPDATE sluice.published_partition SET version = version"
                        + " WHERE dataset = 'gold.route_daily' AND partition_key = '2001-01-02'")).isEqualTo(1);
                runner.observeRetries((run, step, retry, wait, cause) -> {
                    retries.add(step + " retry " + retry + " after " + wait.toMillis() + " ms");
                    try {
                        blocker.rollback(); // the other transaction ends: the retry gets the lock
                    } catch (java.sql.SQLException e) {
                        throw new IllegalStateException(e);
                    }
                });
                RunSummary s = runner.run(spec, DAY, RunOptions.plain().withRerun(true));
                assertThat(s.status().name()).as("%s", s.failure()).isEqualTo("COMPLETED");
                assertThat(retries).containsExactly("gold.route_daily retry 1 after 50 ms");
                assertThat(s.warnings()).anySatisfy(m -> assertThat(m).startsWith("step gold.route_daily failed with a retriable"
                        + " error (").contains("can not be updated by tx").contains("within allocated time interval 300 ms").endsWith("and was retried after 50 ms"));
                DSLContext dsl = w.dsl();
                assertThat(executions(dsl, 1)).as("the failed execution and its restart").isEqualTo(2);
                assertThat(dsl.resultQuery("SELECT version FROM sluice.published_partition WHERE dataset = 'gold.route_daily'"
                        + " AND partition_key = '2001-01-02'").fetchOne(0, Integer.class)).isEqualTo(2);
            }
        }

        // a division by zero fails the same way every time: no retry
        String zero = ROUTES.replace("/ COUNT(*)", "/ (COUNT(*) - COUNT(*))");
        PipelineSpec broken = spec(TestHome.freshH2Url(), ROUTES, zero, "  retry: {max_attempts: 3, backoff: PT0.05S}\n");
        try (Warehouse w = Warehouse.open(broken.warehouse())) {
            List<String> retries = new CopyOnWriteArrayList<>();
            PipelineRunner runner = new PipelineRunner(w, TestHome.withSampleData())
                    .observeRetries((run, step, retry, wait, cause) -> retries.add(step));
            RunSummary s = runner.run(broken, DAY, RunOptions.plain());
            assertThat(s.status().name()).isEqualTo("FAILED");
            assertThat(s.failure()).contains("step gold.route_daily failed").contains("Division by zero");
            assertThat(retries).isEmpty();
            assertThat(executions(w.dsl(), 0)).isEqualTo(1);
        }
    }

    @Test
    void aStepPastItsTimeoutIsStoppedAndResumesFromThatStep() throws Exception {
        String url = TestHome.freshH2Url();
        PipelineSpec slow = spec(url, ROUTES, SLOW_ROUTES,
                "  control_poll: PT0.1S\n  steps:\n    gold.route_daily: {timeout: PT1S}\n");
        try (Warehouse w = Warehouse.open(slow.warehouse())) {
            PipelineRunner runner = new PipelineRunner(w, TestHome.withSampleData());
            RunSummary s = runner.run(slow, DAY, RunOptions.plain());
            assertThat(s.status().name()).isEqualTo("STOPPED");
            assertThat(s.failure()).isEqualTo("stopped: step gold.route_daily ran past its timeout PT1S (execution.steps.gold.route_daily.timeout;"
                    + " a quality gate's Spark pass is not interrupted, so a gate may overrun it) (a plain run restarts it from the stopped step)");
            assertThat(w.dsl().resultQuery("SELECT status FROM sluice.run").fetch(0, String.class)).containsExactly("STOPPED");
            assertThat(w.dsl().resultQuery("SELECT COUNT(*) FROM sluice.published_partition WHERE dataset = 'gold.route_daily'")
                    .fetchOne(0, Integer.class)).as("nothing of the stopped step is published").isZero();

            PipelineSpec fixed = spec(url, ROUTES, ROUTES, "  control_poll: PT0.1S\n");
            RunSummary resumed = runner.run(fixed, DAY, RunOptions.plain());
            assertThat(resumed.status().name()).isEqualTo("COMPLETED");
            assertThat(resumed.restarted()).isTrue();
            assertThat(resumed.attempt()).isZero();
            assertThat(resumed.steps()).filteredOn(st -> !st.earlierExecution()).extracting(st -> st.step())
                    .containsExactly("gold.route_daily", "gold.airport_monthly_delays");
            assertThat(w.dsl().resultQuery("SELECT SUM(flights) FROM gold.route_daily").fetchOne(0, Long.class)).isEqualTo(16_850L);
        }
    }

    @Test
    void aCancelRequestFromAnotherConnectionStopsTheRunningStatement() throws Exception {
        String url = TestHome.freshH2Url();
        PipelineSpec slow = spec(url, ROUTES, SLOW_ROUTES, "  control_poll: PT0.1S\n");
        try (Warehouse w = Warehouse.open(slow.warehouse())) {
            PipelineRunner runner = new PipelineRunner(w, TestHome.withSampleData());
            CompletableFuture<RunSummary> running = CompletableFuture.supplyAsync(() -> runner.run(slow, DAY, RunOptions.plain()));
            DSLContext dsl = w.dsl();
            String runId = null;
            for (long end = System.nanoTime() + TimeUnit.MINUTES.toNanos(2); runId == null && System.nanoTime() < end; ) {
                // the slow step has begun: Spring Batch records it STARTED
                runId = dsl.resultQuery("SELECT r.run_id FROM sluice.run r JOIN sluice.BATCH_STEP_EXECUTION s ON s.JOB_EXECUTION_ID ="
                        + " (SELECT MAX(e.JOB_EXECUTION_ID) FROM sluice.BATCH_JOB_EXECUTION e) WHERE s.STEP_NAME = 'gold.route_daily'"
                        + " AND s.STATUS = 'STARTED'").fetchOne(0, String.class);
                Thread.onSpinWait();
            }
            assertThat(runId).as("the slow step started").isNotNull();
            assertThat(RunControl.requestCancel(dsl, dev.sluice.core.RunId.parse(runId), "tester")).isTrue();
            RunSummary s = running.get(2, TimeUnit.MINUTES);
            assertThat(s.status().name()).isEqualTo("STOPPED");
            assertThat(s.failure()).startsWith("stopped: cancelled by tester at ");
            assertThat(RunControl.requestCancel(dsl, s.runId(), "tester")).as("a stopped run is not running").isFalse();
        }
    }

    /** How many Spring Batch executions attempt {@code attempt} of {@link #DAY} has. */
    private static int executions(DSLContext dsl, int attempt) {
        return dsl.resultQuery("SELECT COUNT(*) FROM sluice.BATCH_JOB_EXECUTION e JOIN sluice.BATCH_JOB_EXECUTION_PARAMS p ON p.JOB_EXECUTION_ID ="
                + " e.JOB_EXECUTION_ID WHERE p.PARAMETER_NAME = 'attempt' AND p.PARAMETER_VALUE = ?", Integer.toString(attempt))
                .fetchOne(0, Integer.class);
    }
}
