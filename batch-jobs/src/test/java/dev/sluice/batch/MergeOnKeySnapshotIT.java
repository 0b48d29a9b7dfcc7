package dev.sluice.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.batch.backfill.Backfill;
import dev.sluice.batch.backfill.BackfillReport;
import dev.sluice.control.version.StaleVersionException;
import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.control.run.RunStatus;
import dev.sluice.batch.job.RunSummary;
import dev.sluice.batch.testkit.PricesPipeline;
import dev.sluice.batch.testkit.RollbackRace;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.config.TableSpec;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.FaultPoints;
import dev.sluice.core.Partition;
import dev.sluice.spark.LakehouseCatalog;
import dev.sluice.spark.SparkSessions;
import dev.sluice.warehouse.Warehouse;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.apache.spark.sql.Encoders;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A snapshot ({@code partition: none}) written {@code merge-on-key} from a daily input, with a
 * gate, backfilled over four days asked at parallelism 2 in one wave: each day's version is built
 * on the one published before it, so the snapshot ends with every day's keys, a key a later day
 * changed at that day's value. Before the backfill ran such pipelines one partition at a time, the
 * days of a wave each built on the version published before the wave: one such backfill completed
 * with the snapshot holding one day's keys ({@code [c]}), another failed a day on a race to publish.
 */
class MergeOnKeySnapshotIT {

    @TempDir
    Path home;

    /**
     * A day whose gate fails stops the backfill there: the later days are not started (STOPPED), the
     * snapshot keeps the days before it, and the backfill invoked again with the check fixed restarts
     * the day's gate and then runs the later days in order.
     */
    @Test
    void aDayThatFailsStopsTheLaterDaysAndTheResumeContinuesInOrder() throws Exception {
        Path spec = PricesPipeline.accumulatingOnWarehouse(home, 1000);
        land("code,price\na,10\n", "code,price\nb,2000\n", "code,price\nc,30\na,11\n", "code,price\nd,40\n");
        PipelineSpec strict = TestHome.load(home, spec);
        try (Warehouse w = Warehouse.open(strict.warehouse(), 8)) {
            Backfill backfill = new Backfill(new PipelineRunner(w, home), Clock.systemUTC());
            BackfillReport first = backfillFourDays(backfill, strict);
            assertThat(first.status().name()).isEqualTo("FAILED");
            assertThat(first.outcomes()).extracting(o -> o.partition() + " " + o.status())
                    .containsExactly("2001-03-01 COMPLETED", "2001-03-02 FAILED", "2001-03-03 STOPPED", "2001-03-04 STOPPED");
            assertThat(first.outcomes().get(2).message()).isEqualTo("not started: 2001-03-02 did not complete (FAILED), and silver.prices"
                    + " is built one partition after another (invoking the backfill again continues it)");
            assertThat(snapshot(w)).containsExactly("a=10");

            Files.writeString(spec, Files.readString(spec).replace("max_value: 1000}", "max_value: 5000}"));
            PipelineSpec fixed = TestHome.load(home, spec);
            BackfillReport second = backfillFourDays(backfill, fixed);
            assertThat(second.status().name()).as("%s", second.outcomes()).isEqualTo("COMPLETED");
            assertThat(snapshot(w)).containsExactly("a=11", "b=2000", "c=30", "d=40");
        }
    }

    @Test
    void everyDaysKeysReachTheSnapshot() throws Exception {
        Path spec = PricesPipeline.accumulatingOnWarehouse(home, 1000);
        land("code,price\na,10\n", "code,price\nb,20\n", "code,price\nc,30\na,11\n", "code,price\nd,40\n");
        PipelineSpec s = TestHome.load(home, spec);
        try (Warehouse w = Warehouse.open(s.warehouse(), 8)) {
            BackfillReport report = backfillFourDays(new Backfill(new PipelineRunner(w, home), Clock.systemUTC()), s);
            assertThat(report.status().name()).as("%s", report.outcomes()).isEqualTo("COMPLETED");
            assertThat(snapshot(w))
                    .containsExactly("a=11", "b=20", "c=30", "d=40");
            assertThat(w.dsl().resultQuery("SELECT codes || ' ' || total FROM gold.price_total WHERE _partition = '2001-03-04'")
                    .fetch(0, String.class)).as("the last day's mart counts every key").containsExactly("4 101");
        }
    }

    /**
     * Two runs build the snapshot on the same published version (day 1's): day 2 has written its
     * version and passed its gate when day 3 runs whole and publishes. Day 2's version is refused
     * (publishing it would drop day 3's key) and the step's retry builds it again on day 3's. Before
     * the compare-and-set, day 2 published its version over day 3's and the snapshot lost {@code c}.
     */
    @Test
    void aVersionBuiltOnAnOlderPublishedOneIsRefusedAndItsRetryBuildsOnTheNewOne() throws Exception {
        refusedAndRebuilt(PricesPipeline.accumulatingOnWarehouse(home, 1000), f -> TestHome.load(home, f), null, "before-publish:");
    }

    /** The same on PostgreSQL, the production warehouse: the conditional UPDATE under READ COMMITTED. */
    @Test
    void onPostgresAVersionBuiltOnAnOlderPublishedOneIsRefusedToo() throws Exception {
        Path spec = PricesPipeline.accumulatingOnWarehouse(home, 1000);
        Files.writeString(spec, Files.readString(spec).replace("user: sa", "user: \"${SLUICE_WAREHOUSE_USER}\""));
        try (EmbeddedPostgres pg = EmbeddedPostgres.builder().start()) {
            PipelineSpecLoader loader = new PipelineSpecLoader(TestHome.environment(home, pg.getJdbcUrl("postgres", "postgres"),
                    "postgres", "").interpolator());
            refusedAndRebuilt(spec, loader::load, null, "before-publish:");
        }
    }

    /** The same on the lakehouse engine: checked before the Iceberg commit, and again as the control plane records it. */
    @Test
    void onTheLakehouseAVersionBuiltOnAnOlderPublishedOneIsRefusedToo() throws Exception {
        Path lake = home.resolve("lake");
        refusedAndRebuilt(PricesPipeline.accumulatingOnLakehouse(home, lake, 1000), f -> TestHome.load(home, f), lake, "before-publish:");
    }

    /**
     * On the lakehouse, day 3 publishes after day 2's version passed the control plane's check and
     * before its Iceberg commit: the commit itself refuses it (the partition changed on main since
     * day 2's branch was made), so main never holds day 2's files without day 3's key.
     */
    @Test
    void onTheLakehouseTheIcebergCommitRefusesAVersionTheCheckLetThrough() throws Exception {
        Path lake = home.resolve("lake");
        refusedAndRebuilt(PricesPipeline.accumulatingOnLakehouse(home, lake, 1000), f -> TestHome.load(home, f), lake,
                "lakehouse-publishing:");
    }

    /**
     * Days 1-3 as the tests above say, {@code spec} loaded by {@code load}, day 3 run whole when day 2
     * reaches the fault point {@code pause} + {@code silver.prices}; the layer tables read from the
     * warehouse, or from {@code lake} through Spark.
     */
    private void refusedAndRebuilt(Path spec, Function<Path, PipelineSpec> load, @Nullable Path lake, String pause) throws Exception {
        Files.writeString(spec, Files.readString(spec) + "execution:\n  retry: {backoff: PT0.001S}\n");
        land("code,price\na,10\n", "code,price\nb,20\n", "code,price\nc,30\n");
        PipelineSpec s = load.apply(spec);
        try (Warehouse w = Warehouse.open(s.warehouse(), 8)) {
            PipelineRunner runner = new PipelineRunner(w, home);
            List<Throwable> retried = new CopyOnWriteArrayList<>();
            runner.observeRetries((run, step, retry, wait, cause) -> retried.add(cause));
            assertThat(runner.run(s, Partition.parseDaily("2001-03-01"), RunOptions.plain()).status()).isEqualTo(RunStatus.COMPLETED);
            AtomicReference<RunSummary> day3 = new AtomicReference<>();
            AtomicBoolean once = new AtomicBoolean();
            ExecutorService other = Executors.newSingleThreadExecutor();
            RunSummary day2;
            try (AutoCloseable meanwhile = FaultPoints.observe(point -> {
                if (point.equals(pause + "silver.prices") && once.compareAndSet(false, true)) {
                    try {
                        day3.set(other.submit(() -> runner.run(s, Partition.parseDaily("2001-03-03"), RunOptions.plain())).get());
                    } catch (InterruptedException | ExecutionException e) {
                        throw new IllegalStateException(e);
                    }
                }
            })) {
                day2 = runner.run(s, Partition.parseDaily("2001-03-02"), RunOptions.plain());
            } finally {
                other.shutdownNow();
            }
            assertThat(day3.get().status()).isEqualTo(RunStatus.COMPLETED);
            assertThat(day2.status()).as("%s", day2.failure()).isEqualTo(RunStatus.COMPLETED);
            Function<String, List<String>> read = lake == null ? sql -> w.dsl().resultQuery(sql).fetch(0, String.class)
                    : sql -> SparkSessions.lakehouse(s.sparkMaster(), new LakehouseCatalog(w.jdbcUrl(), "sa", "", lake.toString()))
                            .sql(sql.replace("_partition", "_sluice_partition")).as(Encoders.STRING()).collectAsList();
            assertThat(read.apply("SELECT code || '=' || price FROM silver.prices ORDER BY code")).containsExactly("a=10", "b=20", "c=30");
            assertThat(retried).singleElement().isInstanceOf(StaleVersionException.class).extracting(Throwable::getMessage)
                    .asString().contains(pause.startsWith("lakehouse") ? "silver.prices partition none: version 2 (run " + day2.runId()
                            + ") was built on main's files of its branch's start, and another version of the partition was committed to main since"
                            : "silver.prices partition none: version 2 (run " + day2.runId() + ") was built on version 1, but version 3 (run "
                            + day3.get().runId() + ") was published meanwhile");
            assertThat(versions(w))
                    .containsExactly("1 on -", "2 on 1", "3 on 1", "4 on 3");
            assertThat(read.apply("SELECT _partition || ' ' || codes || ' ' || total FROM gold.price_total ORDER BY 1"))
                    .containsExactly("2001-03-01 1 10", "2001-03-02 3 60", "2001-03-03 2 40");
            // the refused version 2 is no rollback target: the default goes to 3, the last one published before 4
            TableSpec prices = s.table(DatasetRef.parse("silver.prices")).orElseThrow();
            assertThatThrownBy(() -> runner.engine(s).rollback(prices, Partition.NONE, 2, "test", "to the refused version"))
                    .hasMessage("silver.prices partition none: version 2 was never published: it was refused because another version was"
                            + " published after the one it was built on, and publishing it would drop that version's rows");
            assertThat(runner.engine(s).rollback(prices, Partition.NONE, null, "test", "one back")).isEqualTo(3);
        }
    }

    /**
     * Six days run at once as plain runs (each on its own thread, as the scheduler's jobs would),
     * each adding one key: whatever the interleaving, every key reaches the snapshot. A day whose
     * retries ran out (refused each time) is FAILED and its plain run restarts it, as an operator
     * would. Without the compare-and-set, runs that built on the same version published over each
     * other and keys were lost.
     */
    @Test
    void sixDaysRunAtOnceLoseNoKey() throws Exception {
        Path spec = PricesPipeline.accumulatingOnWarehouse(home, 1000);
        Files.writeString(spec, Files.readString(spec) + "execution:\n  retry: {backoff: PT0.001S}\n");
        land("code,price\na,1\n", "code,price\nb,2\n", "code,price\nc,3\n", "code,price\nd,4\n", "code,price\ne,5\n",
                "code,price\nf,6\n");
        PipelineSpec s = TestHome.load(home, spec);
        try (Warehouse w = Warehouse.open(s.warehouse(), 16)) {
            PipelineRunner runner = new PipelineRunner(w, home);
            List<Throwable> refused = new CopyOnWriteArrayList<>();
            runner.observeRetries((run, step, retry, wait, cause) -> refused.add(cause));
            ExecutorService pool = Executors.newFixedThreadPool(6);
            List<Partition> days = java.util.stream.IntStream.rangeClosed(1, 6).mapToObj(d -> Partition.parseDaily("2001-03-0" + d)).toList();
            List<java.util.concurrent.Future<RunSummary>> runs = new ArrayList<>();
            try {
                days.forEach(d -> runs.add(pool.submit(() -> runner.run(s, d, RunOptions.plain()))));
                for (int i = 0; i < days.size(); i++) {
                    if (runs.get(i).get().status() != RunStatus.COMPLETED) {
                        assertThat(runner.run(s, days.get(i), RunOptions.plain()).status()).isEqualTo(RunStatus.COMPLETED);
                    }
                }
            } finally {
                pool.shutdownNow();
            }
            assertThat(refused).allSatisfy(e -> assertThat(e).isInstanceOf(StaleVersionException.class));
            assertThat(snapshot(w))
                    .as("%d refusals", refused.size()).containsExactly("a=1", "b=2", "c=3", "d=4", "e=5", "f=6");
        }
    }

    /**
     * Day 2 publishes its version of the snapshot ({@code a=11}), then fails in its Gold step; day 3
     * publishes {@code a=12}; day 2's restart runs the Gold step only: the snapshot keeps day 3's
     * value and no version is written again.
     */
    @Test
    void aRestartAfterALaterStepFailedLeavesThePublishedSnapshotAlone() throws Exception {
        Path spec = PricesPipeline.accumulatingOnWarehouse(home, 1000);
        land("code,price\na,10\n", "code,price\na,11\n", "code,price\na,12\n");
        PipelineSpec s = TestHome.load(home, spec);
        try (Warehouse w = Warehouse.open(s.warehouse(), 8)) {
            PipelineRunner runner = new PipelineRunner(w, home);
            assertThat(runner.run(s, Partition.parseDaily("2001-03-01"), RunOptions.plain()).status()).isEqualTo(RunStatus.COMPLETED);
            AtomicBoolean once = new AtomicBoolean();
            RunSummary failed;
            try (AutoCloseable goldFails = FaultPoints.observe(point -> {
                if (point.equals("before:gold.price_total") && once.compareAndSet(false, true)) {
                    throw new IllegalStateException("the Gold step fails once");
                }
            })) {
                failed = runner.run(s, Partition.parseDaily("2001-03-02"), RunOptions.plain());
            }
            assertThat(failed.status()).isEqualTo(RunStatus.FAILED);
            assertThat(runner.run(s, Partition.parseDaily("2001-03-03"), RunOptions.plain()).status()).isEqualTo(RunStatus.COMPLETED);
            RunSummary restarted = runner.run(s, Partition.parseDaily("2001-03-02"), RunOptions.plain());
            assertThat(restarted.status()).as("%s", restarted.failure()).isEqualTo(RunStatus.COMPLETED);
            assertThat(snapshot(w)).containsExactly("a=12");
            assertThat(versions(w))
                    .containsExactly("1 on -", "2 on 1", "3 on 2");
        }
    }

    /**
     * A Gold snapshot merged by key from a daily Silver: each day's Silver partition is at version 1,
     * so before the input fingerprint named the partition, days 2 and 3 found day 1's fingerprint,
     * wrote nothing, and the snapshot kept day 1's key alone.
     */
    @Test
    void aSnapshotMergedFromADailySilverGetsEveryDaysKeys() throws Exception {
        Path spec = PricesPipeline.mergedFromDailySilverOnWarehouse(home);
        land("code,price\na,10\n", "code,price\nb,20\n", "code,price\nc,30\na,11\n");
        PipelineSpec s = TestHome.load(home, spec);
        try (Warehouse w = Warehouse.open(s.warehouse(), 8)) {
            PipelineRunner runner = new PipelineRunner(w, home);
            for (String day : List.of("2001-03-01", "2001-03-02", "2001-03-03")) {
                assertThat(runner.run(s, Partition.parseDaily(day), RunOptions.plain()).status()).isEqualTo(RunStatus.COMPLETED);
            }
            assertThat(w.dsl().resultQuery("SELECT code || '=' || price FROM gold.latest_prices ORDER BY code").fetch(0, String.class))
                    .containsExactly("a=11", "b=20", "c=30");
        }
    }

    /**
     * Day 2's version fails its gate; the check is fixed and day 2 is run again with {@code --rerun}
     * (which abandons the failed attempt) rather than restarted by a plain run. Its input is
     * unchanged, so the newest version has its fingerprint, but that version was never published and
     * its attempt is over: the re-run builds its version again and publishes it. Before, it wrote
     * nothing, judged the published version, completed, and {@code b} never reached the snapshot.
     */
    @Test
    void aRerunAfterAFailedGateBuildsItsVersionAgain() throws Exception {
        Path spec = PricesPipeline.accumulatingOnWarehouse(home, 1000);
        land("code,price\na,10\n", "code,price\nb,2000\n");
        PipelineSpec strict = TestHome.load(home, spec);
        try (Warehouse w = Warehouse.open(strict.warehouse(), 8)) {
            PipelineRunner runner = new PipelineRunner(w, home);
            assertThat(runner.run(strict, Partition.parseDaily("2001-03-01"), RunOptions.plain()).status()).isEqualTo(RunStatus.COMPLETED);
            assertThat(runner.run(strict, Partition.parseDaily("2001-03-02"), RunOptions.plain()).status()).isEqualTo(RunStatus.FAILED);
            Files.writeString(spec, Files.readString(spec).replace("max_value: 1000}", "max_value: 5000}"));
            RunSummary rerun = runner.run(TestHome.load(home, spec), Partition.parseDaily("2001-03-02"), RunOptions.plain().withRerun(true));
            assertThat(rerun.status()).as("%s", rerun.failure()).isEqualTo(RunStatus.COMPLETED);
            assertThat(snapshot(w)).containsExactly("a=10", "b=2000");
            assertThat(versions(w)).containsExactly("1 on -", "2 on 1", "3 on 1");
        }
    }

    /**
     * Day 3 publishes while a rollback of the snapshot to version 1 has chosen its versions and not yet
     * recorded them: the publication waits for the rollback's transaction (the published row is
     * locked), is then refused (day 3 built on version 2, which the rollback replaced), and its retry
     * builds on version 1. The rollback logs the version it replaced. Without the lock, day 3
     * published in between, and the rollback replaced version 3 while logging 2.
     */
    @Test
    void aPublicationDuringARollbackWaitsForItAndIsThenRefused() throws Exception {
        Path spec = PricesPipeline.accumulatingOnWarehouse(home, 1000);
        Files.writeString(spec, Files.readString(spec) + "execution:\n  retry: {backoff: PT0.001S}\n");
        land("code,price\na,10\n", "code,price\nb,20\n", "code,price\nc,30\n");
        PipelineSpec s = TestHome.load(home, spec);
        try (Warehouse w = Warehouse.open(s.warehouse(), 8)) {
            PipelineRunner runner = new PipelineRunner(w, home);
            for (String day : List.of("2001-03-01", "2001-03-02")) {
                assertThat(runner.run(s, Partition.parseDaily(day), RunOptions.plain()).status()).isEqualTo(RunStatus.COMPLETED);
            }
            TableSpec prices = s.table(DatasetRef.parse("silver.prices")).orElseThrow();
            RollbackRace.Outcome race = RollbackRace.during(w, runner, s, prices, 1, "2001-03-03");
            assertThat(race.rolledBackTo()).isEqualTo(1);
            RunSummary third = race.day();
            assertThat(race.waited()).as("day 3's publication waited for the rollback").isTrue();
            assertThat(third.status()).as("%s", third.failure()).isEqualTo(RunStatus.COMPLETED);
            assertThat(w.dsl().resultQuery("SELECT from_version || ' -> ' || to_version FROM sluice.rollback_log").fetch(0, String.class))
                    .containsExactly("2 -> 1");
            assertThat(versions(w)).containsExactly("1 on -", "2 on 1", "3 on 2", "4 on 1");
            assertThat(snapshot(w)).containsExactly("a=10", "c=30");
        }
    }

    /**
     * A version written before {@code base_version} was recorded (base -1, migration V30) still
     * waits for publication: day 2's failed its gate. Day 3 publishes meanwhile; day 2's restart,
     * the check fixed, builds its version again on day 3's instead of publishing the old one over it.
     */
    @Test
    void aVersionFromBeforeTheUpgradeIsBuiltAgainNotPublishedOverNewerOnes() throws Exception {
        Path spec = PricesPipeline.accumulatingOnWarehouse(home, 1000);
        land("code,price\na,10\n", "code,price\nb,2000\n", "code,price\nc,30\n");
        PipelineSpec strict = TestHome.load(home, spec);
        try (Warehouse w = Warehouse.open(strict.warehouse(), 8)) {
            PipelineRunner runner = new PipelineRunner(w, home);
            assertThat(runner.run(strict, Partition.parseDaily("2001-03-01"), RunOptions.plain()).status()).isEqualTo(RunStatus.COMPLETED);
            assertThat(runner.run(strict, Partition.parseDaily("2001-03-02"), RunOptions.plain()).status()).isEqualTo(RunStatus.FAILED);
            w.dsl().execute("UPDATE sluice.partition_version SET base_version = -1 WHERE dataset = 'silver.prices' AND version = 2");
            assertThat(runner.run(strict, Partition.parseDaily("2001-03-03"), RunOptions.plain()).status()).isEqualTo(RunStatus.COMPLETED);
            Files.writeString(spec, Files.readString(spec).replace("max_value: 1000}", "max_value: 5000}"));
            RunSummary restarted = runner.run(TestHome.load(home, spec), Partition.parseDaily("2001-03-02"), RunOptions.plain());
            assertThat(restarted.status()).as("%s", restarted.failure()).isEqualTo(RunStatus.COMPLETED);
            assertThat(snapshot(w))
                    .containsExactly("a=10", "b=2000", "c=30");
            assertThat(versions(w))
                    .containsExactly("1 on -", "2 on -1", "3 on 1", "4 on 3");
        }
    }

    /** The published snapshot {@code silver.prices}, {@code code=price} by code. */
    private static List<String> snapshot(Warehouse w) {
        return w.dsl().resultQuery("SELECT code || '=' || price FROM silver.prices ORDER BY code").fetch(0, String.class);
    }

    /** Every version of {@code silver.prices} written, as {@code <version> on <base_version or ->}. */
    private static List<String> versions(Warehouse w) {
        return w.dsl().resultQuery("SELECT version || ' on ' || COALESCE(CAST(base_version AS VARCHAR), '-') FROM"
                + " sluice.partition_version WHERE dataset = 'silver.prices' ORDER BY version").fetch(0, String.class);
    }

    /** Lands one CSV file per day, 2001-03-01 onwards, with the given contents. */
    private void land(String... days) throws java.io.IOException {
        for (int i = 0; i < days.length; i++) {
            Path day = Files.createDirectories(home.resolve("landing/prices/dt=2001-03-0" + (i + 1)));
            Files.writeString(day.resolve("prices.csv"), days[i]);
        }
    }

    /** 2001-03-01..04 backfilled, asked at parallelism 2 in one wave of four. */
    private static BackfillReport backfillFourDays(Backfill backfill, PipelineSpec spec) {
        return backfill.run(spec, backfill.plan(spec, LocalDate.parse("2001-03-01"), LocalDate.parse("2001-03-04"), false),
                new Backfill.Options(2, 4, "test"), Backfill.Progress.NONE);
    }
}
