package dev.sluice.operations;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.lineage.store.LineageRepository;
import dev.sluice.operations.purge.Purge;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.warehouse.Warehouse;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.core.Partition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.Period;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice purge} on four real days, two of them re-run (so each has a superseded version),
 * with a backfill window that begins on the third day: what is superseded, old and before the
 * window goes (versions, Spring Batch instances, the older lineage edges); everything inside the
 * window, the published versions and the newest lineage stay, and the pipeline runs on.
 */
class PurgeIT {

    private static final List<String> REFINED = List.of("silver.flights", "gold.airport_daily_delays", "gold.route_daily");

    @Test
    void supersededOldRecordsBeforeTheWindowGoAndEverythingElseStays() {
        Clock later = Clock.fixed(Instant.now().plus(Duration.ofDays(30)), ZoneOffset.UTC);
        LocalDate windowStart = LocalDate.parse("2001-01-03");
        Period window = Period.between(windowStart, LocalDate.now(later));
        PipelineSpec spec = loader(window).load(TestHome.projectRoot().resolve("pipelines/flights.yaml"));
        assertThat(spec.backfillWindow()).isEqualTo(window);
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            PipelineRunner runner = new PipelineRunner(w, TestHome.withSampleData());
            for (String d : List.of("2001-01-01", "2001-01-02", "2001-01-03", "2001-01-04")) {
                assertThat(runner.run(spec, new Partition(d), RunOptions.plain()).status().name()).isEqualTo("COMPLETED");
            }
            for (String d : List.of("2001-01-02", "2001-01-03")) {
                assertThat(runner.run(spec, new Partition(d), RunOptions.plain().withRerun(true)).status().name()).isEqualTo("COMPLETED");
            }
            DSLContext dsl = w.dsl();
            long supersededBeforeWindow = 0;
            for (String t : REFINED) {
                supersededBeforeWindow += rows(dsl, t, "2001-01-02", 1);
            }
            assertThat(supersededBeforeWindow).isPositive();
            long instances = count(dsl, "SELECT COUNT(*) FROM sluice.BATCH_JOB_INSTANCE");
            long edges0102 = count(dsl, "SELECT COUNT(*) FROM sluice.lineage_edge WHERE partition_key = '2001-01-02'");

            Purge purge = new Purge(w, later);
            Purge.Report dry = purge.run(spec, Duration.ofDays(1), true);
            assertThat(dry.windowStart()).isEqualTo(windowStart);
            assertThat(dry.removed()).containsEntry("superseded versions", supersededBeforeWindow)
                    .containsEntry("Spring Batch job instances", 3L).containsEntry("superseded Bronze loads", 0L);
            assertThat(count(dsl, "SELECT COUNT(*) FROM sluice.BATCH_JOB_INSTANCE")).as("a dry run removes nothing").isEqualTo(instances);

            Purge.Report done = purge.run(spec, Duration.ofDays(1), false);
            assertThat(done.removed()).isEqualTo(dry.removed());
            for (String t : REFINED) {
                assertThat(rows(dsl, t, "2001-01-02", 1)).as("%s superseded, before the window", t).isZero();
                assertThat(rows(dsl, t, "2001-01-02", 2)).as("%s published", t).isPositive();
                assertThat(rows(dsl, t, "2001-01-03", 1)).as("%s superseded, inside the window", t).isPositive();
            }
            assertThat(count(dsl, "SELECT COUNT(*) FROM sluice.BATCH_JOB_INSTANCE")).isEqualTo(instances - 3);
            assertThat(count(dsl, "SELECT COUNT(*) FROM sluice.lineage_edge WHERE partition_key = '2001-01-02'"))
                    .as("the re-run's edges stay, the first run's go").isEqualTo(edges0102 / 2);
            assertThat(new LineageRepository(dsl).impact("silver.flights", "2001-01-02")).extracting(i -> i.dataset())
                    .contains("gold.airport_daily_delays", "gold.airport_monthly_delays");
            assertThat(purge.run(spec, Duration.ofDays(1), false).removed().values()).as("a second purge finds nothing").containsOnly(0L);

            // the pipeline runs on: the purged partition re-runs as its next attempt
            var again = runner.run(spec, new Partition("2001-01-02"), RunOptions.plain().withRerun(true));
            assertThat(again.status().name()).isEqualTo("COMPLETED");
            assertThat(again.attempt()).isEqualTo(2);
        }
    }

    /**
     * A version written but not published because its gate failed is awaiting a restart, not
     * superseded: a purge, however short its {@code --older-than}, leaves its rows, and the restart
     * publishes them. 2001-01-01's Gold mart is run again with a gate that fails (v2 written, v1
     * still published), purged, then restarted with the gate fixed.
     */
    @Test
    void aVersionAwaitingItsGateIsNotSuperseded(@TempDir Path specDir) throws IOException {
        Clock later = Clock.fixed(Instant.now().plus(Duration.ofDays(30)), ZoneOffset.UTC);
        Period window = Period.between(LocalDate.parse("2001-01-03"), LocalDate.now(later));
        Path specFile = TestHome.copyFlightsSpec(specDir);
        PipelineSpecLoader loader = loader(window);
        String good = TestHome.editSpec(specFile, "column: avg_delay_min, min_value: -120, max_value: 2880}", "column: avg_delay_min, min_value: -120, max_value: 5}");
        PipelineSpec strict = loader.load(specFile);
        Partition day = new Partition("2001-01-01");
        try (Warehouse w = Warehouse.open(strict.warehouse())) {
            PipelineRunner runner = new PipelineRunner(w, TestHome.withSampleData());
            DSLContext dsl = w.dsl();
            Files.writeString(specFile, good);
            PipelineSpec spec = loader.load(specFile);
            assertThat(runner.run(spec, day, RunOptions.plain()).status().name()).isEqualTo("COMPLETED");
            long silverRows = count(dsl, "SELECT COUNT(*) FROM silver.flights");
            assertThat(runner.run(strict, day, RunOptions.plain().withRerun(true)).status().name()).isEqualTo("FAILED");
            long awaiting = rows(dsl, "gold.airport_daily_delays", "2001-01-01", 2);
            assertThat(awaiting).as("v2 written, its gate failed").isPositive();
            assertThat(published(dsl, "gold.airport_daily_delays", day)).isEqualTo(1);
            long superseded = 0; // the tables whose v2 passed its gate before the failing one
            for (String t : REFINED) {
                if (rows(dsl, t, "2001-01-01", 2) > 0 && published(dsl, t, day) == 2) {
                    superseded += rows(dsl, t, "2001-01-01", 1);
                }
            }
            assertThat(superseded).as("silver.flights v1 at least").isPositive();

            Purge.Report report = new Purge(w, later).run(spec, Duration.ZERO, false);
            assertThat(rows(dsl, "gold.airport_daily_delays", "2001-01-01", 2)).as("awaiting its gate: kept").isEqualTo(awaiting);
            assertThat(count(dsl, "SELECT COUNT(*) FROM sluice.partition_version WHERE dataset = 'gold.airport_daily_delays'"))
                    .isEqualTo(2);
            assertThat(report.removed()).containsEntry("superseded versions", superseded);

            var restarted = runner.run(spec, day, RunOptions.plain());
            assertThat(restarted.status().name()).isEqualTo("COMPLETED");
            assertThat(restarted.restarted()).isTrue();
            assertThat(published(dsl, "gold.airport_daily_delays", day)).isEqualTo(2);
            assertThat(count(dsl, "SELECT SUM(flights) FROM gold.airport_daily_delays")).isEqualTo(silverRows).isPositive();
        }
    }

    /** A spec loader over the sample data and a fresh H2 warehouse, with {@code window} as the backfill window. */
    private static PipelineSpecLoader loader(Period window) {
        Map<String, String> env = new HashMap<>(Map.of("SLUICE_BACKFILL_WINDOW", window.toString()));
        var base = TestHome.environment(TestHome.withSampleData(), TestHome.freshH2Url(), "sa", "");
        env.put("SLUICE_HOME", TestHome.withSampleData().toString());
        env.put("SLUICE_WAREHOUSE_URL", base.interpolator().interpolate("${SLUICE_WAREHOUSE_URL}").value());
        return new PipelineSpecLoader(new dev.sluice.config.SluiceEnvironment(env).interpolator());
    }

    /** The published version of {@code table}'s {@code day}. */
    private static int published(DSLContext dsl, String table, Partition day) {
        return dsl.resultQuery("SELECT version FROM sluice.published_partition WHERE dataset = ? AND partition_key = ?", table, day.key())
                .fetchSingle(0, Integer.class);
    }

    private static long rows(DSLContext dsl, String table, String partition, int version) {
        return count(dsl, "SELECT COUNT(*) FROM " + table + "_versions WHERE _partition = '" + partition + "' AND _version = " + version);
    }

    private static long count(DSLContext dsl, String sql) {
        return dsl.resultQuery(sql).fetchOne(0, Long.class);
    }
}
