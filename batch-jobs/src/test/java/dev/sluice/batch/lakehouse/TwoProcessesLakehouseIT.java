package dev.sluice.batch.lakehouse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.control.run.RunStatus;
import dev.sluice.batch.job.RunSummary;
import dev.sluice.batch.testkit.BlockedSessions;
import dev.sluice.batch.testkit.PricesPipeline;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.core.FaultPoints;
import dev.sluice.core.Partition;
import dev.sluice.spark.LakehouseCatalog;
import dev.sluice.spark.SparkSessions;
import dev.sluice.warehouse.Warehouse;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.spark.sql.Encoders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two processes build one lakehouse snapshot ({@code silver.prices}, merged by key from the daily
 * Bronze) on one PostgreSQL warehouse, as the scheduler and an operator's command would: two
 * runners whose warehouse URLs differ, so that they share no lock of this JVM. Day 2's run has
 * staged its version 2 on its branch and not yet recorded it when day 3's run starts. Day 3's run
 * waits for day 2's record of that number (taken before staging) and takes the next one; every
 * day's key reaches the snapshot. Before, day 3 also staged version 2, replacing day 2's branch;
 * day 2 recorded and published that branch as its own, and day 2's key {@code b} was lost.
 */
class TwoProcessesLakehouseIT {

    @TempDir
    Path home;

    @Test
    void twoProcessesNeverStageOneVersionNumber() throws Exception {
        Path lake = home.resolve("lake");
        Path file = PricesPipeline.accumulatingOnLakehouse(home, lake, 1000);
        Files.writeString(file, Files.readString(file).replace("user: sa", "user: \"${SLUICE_WAREHOUSE_USER}\"")
                + "execution:\n  retry: {backoff: PT0.001S}\n");
        for (String[] day : new String[][] {{"01", "a,10"}, {"02", "b,20"}, {"03", "c,30"}}) {
            Path dir = Files.createDirectories(home.resolve("landing/prices/dt=2001-03-" + day[0]));
            Files.writeString(dir.resolve("prices.csv"), "code,price\n" + day[1] + "\n");
        }
        try (EmbeddedPostgres pg = EmbeddedPostgres.builder().start()) {
            String url = pg.getJdbcUrl("postgres", "postgres");
            PipelineSpec one = load(file, url);
            PipelineSpec two = load(file, url + "&ApplicationName=second-process");
            try (Warehouse w1 = Warehouse.open(one.warehouse(), 8); Warehouse w2 = Warehouse.open(two.warehouse(), 8)) {
                PipelineRunner first = new PipelineRunner(w1, home);
                PipelineRunner second = new PipelineRunner(w2, home);
                assertThat(first.run(one, Partition.parseDaily("2001-03-01"), RunOptions.plain()).status()).isEqualTo(RunStatus.COMPLETED);

                Thread day2Thread = Thread.currentThread();
                ExecutorService other = Executors.newSingleThreadExecutor();
                AtomicReference<Future<RunSummary>> day3 = new AtomicReference<>();
                AtomicBoolean day3Staged = new AtomicBoolean();
                AtomicBoolean day3Waited = new AtomicBoolean();
                CountDownLatch day2Done = new CountDownLatch(1);
                RunSummary day2;
                try (AutoCloseable meanwhile = FaultPoints.observe(point -> {
                    if (!point.equals("lakehouse-staged:silver.prices")) {
                        return;
                    }
                    if (Thread.currentThread() == day2Thread && day3.get() == null) {
                        day3.set(other.submit(() -> second.run(two, Partition.parseDaily("2001-03-03"), RunOptions.plain())));
                        day3Waited.set(BlockedSessions.await(w1, () -> day3.get().isDone() || day3Staged.get()));
                    } else if (Thread.currentThread() != day2Thread) {
                        day3Staged.set(true); // staged: held until day 2's run has ended, so that day 2 records first
                        try {
                            day2Done.await(120, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                })) {
                    day2 = first.run(one, Partition.parseDaily("2001-03-02"), RunOptions.plain());
                    day2Done.countDown();
                    RunSummary third = day3.get().get(180, TimeUnit.SECONDS);
                    assertThat(third.status()).as("%s", third.failure()).isEqualTo(RunStatus.COMPLETED);
                } finally {
                    day2Done.countDown();
                    other.shutdown();
                }
                assertThat(day2.status()).as("%s", day2.failure()).isEqualTo(RunStatus.COMPLETED);
                assertThat(SparkSessions.lakehouse(one.sparkMaster(), new LakehouseCatalog(w1.jdbcUrl(), "postgres", "", lake.toString()))
                        .sql("SELECT code || '=' || price FROM silver.prices ORDER BY code").as(Encoders.STRING()).collectAsList())
                        .containsExactly("a=10", "b=20", "c=30");
                assertThat(w1.dsl().resultQuery("SELECT version || ' by ' || CASE WHEN run_id = ? THEN 'day 2' ELSE 'other' END"
                        + " FROM sluice.partition_version WHERE dataset = 'silver.prices' AND version = 2", day2.runId().toString())
                        .fetch(0, String.class)).containsExactly("2 by day 2");
            }
        }
    }

    private PipelineSpec load(Path file, String url) {
        return new PipelineSpecLoader(TestHome.environment(home, url, "postgres", "").interpolator()).load(file);
    }
}
