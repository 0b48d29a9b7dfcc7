package dev.sluice.app.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.warehouse.Warehouse;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.core.Partition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A data trigger: pipeline {@code digest} declares {@code schedule.after: [gold.airport_daily_delays]}
 * and no cron. When the flights pipeline publishes a day of that mart, the scheduler runs the same
 * day of digest; when flights re-publishes it (a re-run), digest runs it again (its next attempt);
 * with nothing new published, a further look runs nothing.
 */
class DataTriggerIT {

    @TempDir
    Path specs;

    private static final Partition DAY = new Partition("2001-01-02");
    private static final PipelineScheduler.Settings FAST = new PipelineScheduler.Settings(2, 500, 1_000);

    @Test
    void aPublishedPartitionStartsTheDependentPipelineOncePerPublication() throws Exception {
        String contract = Files.readString(TestHome.projectRoot().resolve("pipelines/contracts/flights.v1.yaml"));
        Path digestFile = TestHome.writePipeline(specs, "digest", contract, """
                pipeline: digest
                warehouse: {url: "${SLUICE_WAREHOUSE_URL}", user: sa, password: ""}
                partitioning: {kind: daily}
                schedule:
                  after: [gold.airport_daily_delays]
                  poll: PT0.2S
                sources:
                  - {name: flights, format: parquet, path: "${SLUICE_HOME}/landing/flights/dt={partition}", contract: contracts/digest.v1.yaml}
                layers:
                  bronze: [{table: bronze.digest_flights_raw, source: flights}]
                  silver:
                    - table: silver.digest_count
                      input: bronze.digest_flights_raw
                      key: [flights]
                      columns: {flights: long}
                      sql: SELECT COUNT(*) AS flights FROM {input} f
                  gold:
                    - table: gold.digest_daily
                      input: silver.digest_count
                      key: [flights]
                      columns: {flights: long}
                      sql: SELECT flights FROM {input} s
                """);
        String url = TestHome.freshH2Url();
        PipelineSpecLoader loader = new PipelineSpecLoader(TestHome.environment(TestHome.withSampleData(), url, "sa", "").interpolator());
        PipelineSpec digest = loader.load(digestFile);
        assertThat(digest.schedule().hasCron()).isFalse();
        PipelineSpec flights = TestHome.flightsSpec(url, "sa", "");
        String attempts = "SELECT attempt || ' ' || status FROM sluice.run WHERE pipeline = 'digest' ORDER BY attempt";
        try (Warehouse w = Warehouse.open(flights.warehouse(), 12)) {
            PipelineRunner runner = new PipelineRunner(w, TestHome.withSampleData());
            assertThat(runner.run(flights, DAY, RunOptions.plain()).status().name()).isEqualTo("COMPLETED");
            try (PipelineScheduler scheduler = new PipelineScheduler(w, TestHome.withSampleData(), name -> loader.load(digestFile), FAST)) {
                PipelineScheduler.Registered r = scheduler.schedule(digest);
                assertThat(r.cron()).isEqualTo("-");
                assertThat(r.after()).containsExactly("gold.airport_daily_delays");
                scheduler.start();
                Waits.until("digest loads the published day", Duration.ofSeconds(60),
                        () -> w.dsl().resultQuery(attempts).fetch(0, String.class).equals(List.of("0 COMPLETED")));
                long bronze = w.dsl().resultQuery("SELECT COUNT(*) FROM bronze.flights_raw WHERE _partition = ?", DAY.key())
                        .fetchOne(0, Long.class);
                long quarantined = w.dsl().resultQuery("SELECT COUNT(*) FROM sluice.quarantine WHERE pipeline = 'digest'").fetchOne(0, Long.class);
                assertThat(bronze).isEqualTo(16_850L);
                assertThat(w.dsl().resultQuery("SELECT flights FROM gold.digest_daily WHERE _partition = ?", DAY.key())
                        .fetchOne(0, Long.class) + quarantined).as("every landed row, counted or quarantined").isEqualTo(bronze);

                // flights re-publishes the day: digest follows with its next attempt
                assertThat(runner.run(flights, DAY, RunOptions.plain().withRerun(true)).status().name()).isEqualTo("COMPLETED");
                Waits.until("digest re-loads the re-published day", Duration.ofSeconds(60),
                        () -> w.dsl().resultQuery(attempts).fetch(0, String.class).equals(List.of("0 COMPLETED", "1 COMPLETED")));
            }
            // nothing new is published: another look runs nothing
            DataTriggerJob.check(new SchedulerRuntime(runner, name -> loader.load(digestFile), new MissedPartitions(w.dsl())), "digest", "test");
            assertThat(w.dsl().resultQuery(attempts).fetch(0, String.class)).containsExactly("0 COMPLETED", "1 COMPLETED");
            assertThat(w.dsl().resultQuery("SELECT trace_id FROM sluice.run WHERE pipeline = 'digest' AND attempt = 1").fetchOne(0, String.class))
                    .startsWith("data trigger: gold.airport_daily_delays published 2001-01-02 at ");
        }
    }
}
