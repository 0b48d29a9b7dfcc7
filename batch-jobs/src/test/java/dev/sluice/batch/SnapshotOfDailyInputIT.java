package dev.sluice.batch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.backfill.Backfill;
import dev.sluice.batch.backfill.BackfillReport;
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
import dev.sluice.core.Partition;
import dev.sluice.spark.LakehouseCatalog;
import dev.sluice.spark.SparkSessions;
import dev.sluice.warehouse.Warehouse;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;
import java.util.List;
import org.apache.spark.sql.Encoders;
import org.springframework.transaction.support.TransactionTemplate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A snapshot ({@code partition: none}) written {@code overwrite-partition} from a daily Silver,
 * each day a full extract of the prices ({@code gold.latest_prices}): every day's run replaces the
 * snapshot with its own day's rows, so it holds the day published last. Before the input fingerprint
 * named the input partition, every Silver day's first version (1) looked like day 1's, so days 2..N
 * wrote nothing and the snapshot kept day 1's prices for good.
 */
class SnapshotOfDailyInputIT {

    private static final String[] EXTRACTS = {"code,price\na,10\nb,20\n", "code,price\na,11\nb,21\n", "code,price\na,12\nc,30\n",
        "code,price\nb,23\nd,40\n"};

    @TempDir
    Path home;

    @Test
    void eachDayReplacesTheSnapshotOnTheWarehouse() throws Exception {
        land(EXTRACTS);
        PipelineSpec s = TestHome.load(home, PricesPipeline.extractFromDailySilver(home, null, 3, 1000));
        try (Warehouse w = Warehouse.open(s.warehouse(), 8)) {
            PipelineRunner runner = new PipelineRunner(w, home);
            run(runner, s, "2001-03-01");
            assertThat(snapshot(w)).containsExactly("a=10", "b=20");
            run(runner, s, "2001-03-02");
            assertThat(snapshot(w)).containsExactly("a=11", "b=21");
            run(runner, s, "2001-03-03");
            assertThat(snapshot(w)).containsExactly("a=12", "c=30");
            assertThat(versions(w)).containsExactly("1 published=false", "2 published=false", "3 published=true");
            run(runner, s, "2001-03-02", RunOptions.plain().withRerun(true)); // a re-run of an older day brings its extract back
            assertThat(snapshot(w)).containsExactly("a=11", "b=21");
            assertThat(versions(w)).containsExactly("1 published=false", "2 published=false", "3 published=false", "4 published=true");
        }
    }

    @Test
    void eachDayReplacesTheSnapshotOnTheLakehouse() throws Exception {
        land(EXTRACTS);
        Path lake = home.resolve("lake");
        PipelineSpec s = TestHome.load(home, PricesPipeline.extractFromDailySilver(home, lake, 3, 1000));
        try (Warehouse w = Warehouse.open(s.warehouse(), 8)) {
            PipelineRunner runner = new PipelineRunner(w, home);
            for (String day : List.of("2001-03-01", "2001-03-02", "2001-03-03")) {
                run(runner, s, day);
            }
            List<String> read = SparkSessions.lakehouse(s.sparkMaster(), new LakehouseCatalog(w.jdbcUrl(), "sa", "", lake.toString()))
                    .sql("SELECT code || '=' || price FROM gold.latest_prices ORDER BY code").as(Encoders.STRING()).collectAsList();
            assertThat(read).containsExactly("a=12", "c=30");
            assertThat(versions(w)).containsExactly("1 published=false", "2 published=false", "3 published=true");
            assertThat(w.dsl().resultQuery("SELECT version || '=' || published_once FROM sluice.partition_version"
                    + " WHERE dataset = 'gold.latest_prices' ORDER BY version").fetch(0, String.class))
                    .as("the lakehouse's publications mark their versions").containsExactly("1=TRUE", "2=TRUE", "3=TRUE");
        }
    }

    /**
     * A backfill asked at parallelism 2 in one wave runs the days one at a time, in order, so the
     * snapshot ends with the backfill's last day (a wave would publish its days in any order).
     */
    @Test
    void aBackfillEndsWithItsLastDay() throws Exception {
        land(EXTRACTS);
        PipelineSpec s = TestHome.load(home, PricesPipeline.extractFromDailySilver(home, null, 3, 1000));
        assertThat(Backfill.oneAtATime(s)).contains("gold.latest_prices is a snapshot written overwrite-partition from the partitioned"
                + " silver.prices, and each partition's version replaces it, so the last partition must be published last");
        try (Warehouse w = Warehouse.open(s.warehouse(), 8)) {
            Backfill backfill = new Backfill(new PipelineRunner(w, home), Clock.systemUTC());
            BackfillReport report = backfill.run(s, backfill.plan(s, LocalDate.parse("2001-03-01"), LocalDate.parse("2001-03-04"), false),
                    new Backfill.Options(2, 4, "test"), Backfill.Progress.NONE);
            assertThat(report.status().name()).as("%s", report.outcomes()).isEqualTo("COMPLETED");
            assertThat(snapshot(w)).containsExactly("b=23", "d=40");
            assertThat(w.dsl().resultQuery("SELECT run_id FROM sluice.partition_version WHERE dataset = 'gold.latest_prices' ORDER BY"
                    + " version").fetch(0, String.class)).as("one version per day, in order").containsExactly(
                            report.outcomes().stream().map(o -> String.valueOf(o.summary().runId())).toArray(String[]::new));
        }
    }

    /**
     * With one version kept, day 3's publication prunes day 2's version, which failed its gate and
     * waits unpublished. Day 2's restart (the check fixed) builds its extract again instead of
     * publishing the pruned version, which would leave the snapshot empty.
     */
    @Test
    void aPrunedVersionIsBuiltAgainNotPublishedEmpty() throws Exception {
        land(EXTRACTS[0], "code,price\na,2000\nb,21\n", EXTRACTS[2]);
        Path file = PricesPipeline.extractFromDailySilver(home, null, 1, 1000);
        PipelineSpec strict = TestHome.load(home, file);
        try (Warehouse w = Warehouse.open(strict.warehouse(), 8)) {
            PipelineRunner runner = new PipelineRunner(w, home);
            run(runner, strict, "2001-03-01");
            assertThat(runner.run(strict, Partition.parseDaily("2001-03-02"), RunOptions.plain()).status()).isEqualTo(RunStatus.FAILED);
            run(runner, strict, "2001-03-03");
            assertThat(snapshot(w)).containsExactly("a=12", "c=30");
            Files.writeString(file, Files.readString(file).replace("max_value: 1000}", "max_value: 5000}"));
            run(runner, TestHome.load(home, file), "2001-03-02");
            assertThat(snapshot(w)).containsExactly("a=2000", "b=21");
            assertThat(versions(w)).containsExactly("1 published=false", "2 published=false", "3 published=false", "4 published=true");
        }
    }

    /**
     * A rollback with no version named goes to the version published before the current one, not
     * to day 2's, which failed its gate and waits unpublished: before, it took the newest kept version
     * below the published one and published day 2's extract, whose price the gate had refused. Named
     * explicitly, that version is still a target (the operator's call).
     */
    @Test
    void aRollbackPassesOverAVersionWhoseGateFailed() throws Exception {
        land(EXTRACTS[0], "code,price\na,2000\nb,21\n", EXTRACTS[2]);
        PipelineSpec s = TestHome.load(home, PricesPipeline.extractFromDailySilver(home, null, 3, 1000));
        try (Warehouse w = Warehouse.open(s.warehouse(), 8)) {
            PipelineRunner runner = new PipelineRunner(w, home);
            run(runner, s, "2001-03-01");
            assertThat(runner.run(s, Partition.parseDaily("2001-03-02"), RunOptions.plain()).status()).isEqualTo(RunStatus.FAILED);
            run(runner, s, "2001-03-03");
            assertThat(versions(w)).containsExactly("1 published=false", "2 published=false", "3 published=true");
            TableSpec latest = s.table(DatasetRef.parse("gold.latest_prices")).orElseThrow();
            Integer to = new TransactionTemplate(w.transactionManager())
                    .execute(status -> runner.engine(s).rollback(latest, Partition.NONE, null, "test", "day 3 was wrong"));
            assertThat(to).isEqualTo(1);
            assertThat(snapshot(w)).containsExactly("a=10", "b=20");
            assertThat(w.dsl().resultQuery("SELECT version FROM sluice.partition_version WHERE dataset = 'gold.latest_prices'"
                    + " AND published_once ORDER BY version").fetch(0, Integer.class)).containsExactly(1, 3);
            Integer named = new TransactionTemplate(w.transactionManager())
                    .execute(status -> runner.engine(s).rollback(latest, Partition.NONE, 2, "test", "named"));
            assertThat(named).isEqualTo(2);
            assertThat(snapshot(w)).containsExactly("a=2000", "b=21");
            assertThat(w.dsl().resultQuery("SELECT version || '=' || published_once FROM sluice.partition_version"
                    + " WHERE dataset = 'gold.latest_prices' ORDER BY version").fetch(0, String.class))
                    .as("a rollback's publication marks its version too; no version is left unknown (NULL)")
                    .containsExactly("1=TRUE", "2=TRUE", "3=TRUE");
        }
    }

    /**
     * On PostgreSQL, day 3 publishes while a rollback of the snapshot to version 1 holds the
     * published row (it has chosen its versions, not yet recorded them): day 3's publication waits,
     * then replaces the rolled-back version (the snapshot holds the day published last), and the
     * rollback logs the version it replaced. Before, a publication deleted the published row and
     * inserted its own: after waiting, it found the row the rollback had inserted and failed on its
     * key, for good (not a retriable error).
     */
    @Test
    void onPostgresAPublicationDuringARollbackWaitsThenReplacesIt() throws Exception {
        land(EXTRACTS);
        Path file = PricesPipeline.extractFromDailySilver(home, null, 3, 1000);
        Files.writeString(file, Files.readString(file).replace("user: sa", "user: \"${SLUICE_WAREHOUSE_USER}\""));
        try (EmbeddedPostgres pg = EmbeddedPostgres.builder().start()) {
            PipelineSpec s = new PipelineSpecLoader(TestHome.environment(home, pg.getJdbcUrl("postgres", "postgres"), "postgres", "")
                    .interpolator()).load(file);
            try (Warehouse w = Warehouse.open(s.warehouse(), 8)) {
                PipelineRunner runner = new PipelineRunner(w, home);
                run(runner, s, "2001-03-01");
                run(runner, s, "2001-03-02");
                TableSpec latest = s.table(DatasetRef.parse("gold.latest_prices")).orElseThrow();
                RollbackRace.Outcome race = RollbackRace.during(w, runner, s, latest, 1, "2001-03-03");
                assertThat(race.rolledBackTo()).isEqualTo(1);
                RunSummary third = race.day();
                assertThat(third.status()).as("%s", third.failure()).isEqualTo(RunStatus.COMPLETED);
                assertThat(race.waited()).as("day 3's publication waited for the rollback").isTrue();
                assertThat(snapshot(w)).containsExactly("a=12", "c=30");
                assertThat(versions(w)).containsExactly("1 published=false", "2 published=false", "3 published=true");
                assertThat(w.dsl().resultQuery("SELECT from_version || ' -> ' || to_version FROM sluice.rollback_log").fetch(0, String.class))
                        .containsExactly("2 -> 1");
            }
        }
    }

    private static void run(PipelineRunner runner, PipelineSpec s, String day) {
        run(runner, s, day, RunOptions.plain());
    }

    private static void run(PipelineRunner runner, PipelineSpec s, String day, RunOptions options) {
        RunSummary r = runner.run(s, Partition.parseDaily(day), options);
        assertThat(r.status()).as("%s %s", day, r.failure()).isEqualTo(RunStatus.COMPLETED);
    }

    private static List<String> snapshot(Warehouse w) {
        return w.dsl().resultQuery("SELECT code || '=' || price FROM gold.latest_prices ORDER BY code").fetch(0, String.class);
    }

    /** Every version of {@code gold.latest_prices} written, and whether it is the published one. */
    private static List<String> versions(Warehouse w) {
        return w.dsl().resultQuery("SELECT v.version || ' published=' || CASE WHEN p.version = v.version THEN 'true' ELSE 'false' END"
                + " FROM sluice.partition_version v LEFT JOIN sluice.published_partition p ON p.dataset = v.dataset"
                + " AND p.partition_key = v.partition_key WHERE v.dataset = 'gold.latest_prices' ORDER BY v.version").fetch(0, String.class);
    }

    /** Lands one CSV file per day, 2001-03-01 onwards, with the given contents. */
    private void land(String... days) throws java.io.IOException {
        for (int i = 0; i < days.length; i++) {
            Path day = Files.createDirectories(home.resolve("landing/prices/dt=2001-03-0" + (i + 1)));
            Files.writeString(day.resolve("prices.csv"), days[i]);
        }
    }
}
