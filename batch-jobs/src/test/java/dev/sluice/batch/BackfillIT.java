package dev.sluice.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.control.backfill.Action;
import dev.sluice.batch.backfill.Backfill;
import dev.sluice.batch.backfill.BackfillPlan;
import dev.sluice.batch.backfill.BackfillRefusedException;
import dev.sluice.batch.backfill.BackfillReport;
import dev.sluice.batch.backfill.PartitionOutcome;
import dev.sluice.batch.backfill.PlannedPartition;
import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.batch.testkit.OpenLineageSchemas;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.engine.warehouse.TableChecksum;
import dev.sluice.warehouse.Warehouse;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.config.TableSpec;
import dev.sluice.core.Layer;
import dev.sluice.core.Partition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Backfills of the real flights data: waves of partitions whose gates are judged in one pass give
 * exactly what a one-by-one run gives (published rows, every quality result, the 2001-07-01
 * anomaly), the partition runs are the backfill run's children in lineage, an interrupted backfill
 * continues where it stopped, and the backfill window refuses older partitions.
 */
class BackfillIT {

    @TempDir
    Path specDir;

    private static final Backfill.Options TWO_WORKERS_WAVES_OF_4 = new Backfill.Options(2, 4, "test");

    @Test
    void wavesJudgedInOnePassEqualAOneByOneRunAndThePartitionRunsAreTheBackfillsChildren() throws Exception {
        LocalDate from = LocalDate.parse("2001-06-26");
        LocalDate to = LocalDate.parse("2001-07-01");
        PipelineSpec one = TestHome.flightsSpec(TestHome.freshH2Url(), "sa", "");
        PipelineSpec many = TestHome.flightsSpec(TestHome.freshH2Url(), "sa", "");
        try (Warehouse a = Warehouse.open(one.warehouse()); Warehouse b = Warehouse.open(many.warehouse(), 8)) {
            PipelineRunner sequential = new PipelineRunner(a, TestHome.withSampleData());
            for (LocalDate d = from; !d.isAfter(to); d = d.plusDays(1)) {
                assertThat(sequential.run(one, Partition.daily(d), RunOptions.plain()).status().name()).isEqualTo("COMPLETED");
            }

            Backfill backfill = new Backfill(new PipelineRunner(b, TestHome.withSampleData()), Clock.systemUTC());
            BackfillPlan plan = backfill.plan(many, from, to, false);
            assertThat(plan.partitions()).extracting(PlannedPartition::action).containsOnly(Action.RUN).hasSize(6);
            assertThat(plan.steps()).containsExactly("bronze.airports_raw", "bronze.flights_raw", "gate.bronze.flights_raw",
                    "silver.airports", "silver.flights", "gate.silver.flights", "gold.airport_daily_delays",
                    "gate.gold.airport_daily_delays", "gold.route_daily", "gold.airport_monthly_delays");
            BackfillReport report = backfill.run(many, plan, TWO_WORKERS_WAVES_OF_4, Backfill.Progress.NONE);
            assertThat(report.status().name()).as("%s", report.outcomes()).isEqualTo("COMPLETED");
            assertThat(report.outcomes()).extracting(o -> o.status().name()).containsOnly("COMPLETED");
            // two waves (4 + 2 partitions) × three gates, each one pass
            assertThat(report.gateBatches()).isEqualTo(6);

            // the same published rows, partition by partition
            for (TableSpec t : many.tables()) {
                if (t.layer() == Layer.BRONZE || !t.partitioned()) {
                    continue;
                }
                for (LocalDate d = from; !d.isAfter(to); d = d.plusDays(1)) {
                    assertThat(TableChecksum.of(b.dsl(), t, Partition.daily(d))).as("%s %s", t.table(), d)
                            .isEqualTo(TableChecksum.of(a.dsl(), t, Partition.daily(d)));
                }
            }
            // the monthly rollup: the same rows, rebuilt once per month of each wave (June by 06-29 in the first wave and by
            // 06-30 in the second, July by 07-01) where the one-by-one run rebuilt June five times
            TableSpec monthly = many.tables().stream().filter(TableSpec::isRollup).findFirst().orElseThrow();
            for (String month : List.of("2001-06", "2001-07")) {
                assertThat(TableChecksum.of(b.dsl(), monthly, Partition.parseAny(month))).as(month)
                        .isEqualTo(TableChecksum.of(a.dsl(), monthly, Partition.parseAny(month)));
            }
            assertThat(published(a.dsl(), "gold.airport_monthly_delays")).containsExactly("2001-06 5", "2001-07 1");
            assertThat(published(b.dsl(), "gold.airport_monthly_delays")).containsExactly("2001-06 2", "2001-07 1");
            assertThat(b.dsl().resultQuery("SELECT SUM(flights) FROM gold.airport_monthly_delays WHERE flight_month = '2001-06'")
                    .fetchOne(0, Long.class)).isEqualTo(b.dsl().resultQuery("SELECT SUM(flights) FROM gold.airport_daily_delays"
                            + " WHERE flight_date < DATE '2001-07-01'").fetchOne(0, Long.class)).isPositive();
            // a deferred rollup step wrote nothing and says so in lineage: no output on its COMPLETE event
            assertThat(report.outcomes()).filteredOn(o -> o.partition().key().equals("2001-06-27")).singleElement()
                    .satisfies(o -> assertThat(o.summary().steps()).filteredOn(st -> st.step().equals("gold.airport_monthly_delays"))
                            .singleElement().satisfies(st -> assertThat(st.rowsWritten()).isZero()));
            assertThat(b.dsl().resultQuery("SELECT partition_key FROM sluice.lineage_event WHERE job = 'flights.gold.airport_monthly_delays'"
                    + " AND event_type = 'COMPLETE' AND event_json LIKE '%\"outputs\":[]%' ORDER BY partition_key").fetch(0, String.class))
                    .containsExactly("2001-06-26", "2001-06-27", "2001-06-28");

            // the same verdict, metric, counts and message for every check of every partition
            assertThat(results(b.dsl())).isNotEmpty().containsExactlyElementsOf(results(a.dsl()));
            assertThat(results(b.dsl())).contains(
                    "bronze.flights_raw 2001-07-01 row_count_in_line WARNED 6.0 anomaly: row_count 6 is 0.04 % of the previous"
                            + " accepted 15626 (allowed 50 %–200 %)");

            // lineage: one backfill run, the parent of every partition's job run
            DSLContext dsl = b.dsl();
            assertThat(dsl.resultQuery("SELECT event_type || ' ' || partition_key FROM sluice.lineage_event WHERE job = 'flights.backfill'"
                    + " ORDER BY event_id").fetch(0, String.class))
                    .containsExactly("START 2001-06-26..2001-07-01", "COMPLETE 2001-06-26..2001-07-01");
            assertThat(dsl.resultQuery("SELECT DISTINCT parent_run_id FROM sluice.lineage_event WHERE job = 'flights'")
                    .fetch(0, String.class)).containsExactly(report.lineageRun().toString());
            assertThat(dsl.resultQuery("SELECT COUNT(DISTINCT run_id) FROM sluice.lineage_event WHERE job = 'flights'")
                    .fetchOne(0, Integer.class)).isEqualTo(6);
            OpenLineageSchemas.find().ifPresent(schemas -> {
                for (String json : dsl.resultQuery("SELECT event_json FROM sluice.lineage_event WHERE job = 'flights.backfill'"
                        + " OR (job = 'flights' AND partition_key = '2001-07-01')").fetch(0, String.class)) {
                    try {
                        assertThat(schemas.violations(new com.fasterxml.jackson.databind.ObjectMapper().readTree(json))).isEmpty();
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }
            });

            // planned again: the range is done, so a new backfill skips everything unless --rerun
            BackfillPlan again = backfill.plan(many, from, to, false);
            assertThat(again.resumed()).isFalse();
            assertThat(again.backfillId()).isNotEqualTo(plan.backfillId());
            assertThat(again.partitions()).extracting(PlannedPartition::action).containsOnly(Action.SKIP);
            assertThat(backfill.plan(many, from, to, true).partitions()).extracting(PlannedPartition::action).containsOnly(Action.RERUN);
        }
    }

    @Test
    void anInterruptedBackfillContinuesWhereItStoppedAndTheWindowRefusesOlderPartitions() throws Exception {
        Path specFile = TestHome.copyFlightsSpec(specDir);
        String good = Files.readString(specFile).replace("backfill_window: ${SLUICE_BACKFILL_WINDOW:-P10000D}", "backfill_window: P300D");
        assertThat(good).contains("backfill_window: P300D");
        // 2001-01-01 landed 14,828 rows, the next three days more than 16,000: a minimum of 15,000 fails the first only
        String strict = good.replace("{id: rows_landed, expect: expect_table_row_count_to_be_between, min_value: 1}",
                "{id: rows_landed, expect: expect_table_row_count_to_be_between, min_value: 15000}");
        assertThat(strict).isNotEqualTo(good);
        Files.writeString(specFile, strict);
        var env = TestHome.environment(TestHome.withSampleData(), TestHome.freshH2Url(), "sa", "");
        PipelineSpecLoader loader = new PipelineSpecLoader(env.interpolator());
        Clock endOf2001 = Clock.fixed(Instant.parse("2001-10-15T12:00:00Z"), ZoneOffset.UTC);
        LocalDate from = LocalDate.parse("2001-01-01");
        LocalDate to = LocalDate.parse("2001-01-04");
        PipelineSpec strictSpec = loader.load(specFile);
        try (Warehouse w = Warehouse.open(strictSpec.warehouse(), 8)) {
            Backfill backfill = new Backfill(new PipelineRunner(w, TestHome.withSampleData()), endOf2001);
            assertThatThrownBy(() -> backfill.plan(strictSpec, LocalDate.parse("2000-12-18"), to, false))
                    .isInstanceOf(BackfillRefusedException.class)
                    .hasMessageContaining("partition 2000-12-18 is older than the backfill window P300D of pipeline flights allows:"
                            + " the earliest partition a backfill may reach today is 2000-12-19");

            BackfillReport first = backfill.run(strictSpec, backfill.plan(strictSpec, from, to, false), TWO_WORKERS_WAVES_OF_4,
                    Backfill.Progress.NONE);
            assertThat(first.status().name()).isEqualTo("FAILED");
            assertThat(first.outcomes()).extracting(o -> o.partition() + " " + o.status())
                    .containsExactly("2001-01-01 FAILED", "2001-01-02 COMPLETED", "2001-01-03 COMPLETED", "2001-01-04 COMPLETED");
            assertThat(first.outcomes().get(0).message()).startsWith("step gate.bronze.flights_raw failed: bronze.flights_raw partition"
                    + " 2001-01-01: check rows_landed (expect_table_row_count_to_be_between) failed: measured 14828");

            Files.writeString(specFile, good);
            PipelineSpec fixed = loader.load(specFile);
            BackfillPlan resumed = backfill.plan(fixed, from, to, false);
            assertThat(resumed.resumed()).isTrue();
            assertThat(resumed.backfillId()).isEqualTo(first.backfillId());
            List<String> actions = new ArrayList<>();
            resumed.partitions().forEach(p -> actions.add(p.partition() + " " + p.action()));
            assertThat(actions).containsExactly("2001-01-01 RESUME", "2001-01-02 SKIP", "2001-01-03 SKIP", "2001-01-04 SKIP");
            BackfillReport second = backfill.run(fixed, resumed, TWO_WORKERS_WAVES_OF_4, Backfill.Progress.NONE);
            assertThat(second.status().name()).isEqualTo("COMPLETED");
            assertThat(second.backfillId()).isEqualTo(first.backfillId());
            assertThat(second.lineageRun()).isNotEqualTo(first.lineageRun());
            PartitionOutcome restarted = second.outcomes().get(0);
            assertThat(restarted.summary()).isNotNull();
            assertThat(restarted.summary().restarted()).as("restarted from its failed step").isTrue();
            assertThat(restarted.summary().attempt()).isZero();
            DSLContext dsl = w.dsl();
            assertThat(dsl.resultQuery("SELECT status || ' ' || invocations FROM sluice.backfill").fetch(0, String.class))
                    .containsExactly("COMPLETED 2");
            assertThat(dsl.resultQuery("SELECT SUM(flights) FROM gold.airport_daily_delays").fetchOne(0, Long.class))
                    .isEqualTo(dsl.resultQuery("SELECT COUNT(*) FROM silver.flights").fetchOne(0, Long.class));
            assertThat(dsl.resultQuery("SELECT COUNT(*) FROM silver.flights").fetchOne(0, Long.class))
                    .isEqualTo(14_828L + 16_850 + 16_945 + 17_063);

            // --stale: a changed Gold SQL makes every partition built before it stale; the re-run clears it
            Files.writeString(specFile, good.replace("MAX(delay_min) AS max_delay_min", "MAX(delay_min) + 0 AS max_delay_min"));
            PipelineSpec changed = loader.load(specFile);
            BackfillPlan stale = backfill.plan(changed, LocalDate.parse("2000-12-31"), to, false, true);
            assertThat(stale.partitions()).extracting(p -> p.partition() + " " + p.action()).containsExactly("2000-12-31 MISSING",
                    "2001-01-01 RERUN", "2001-01-02 RERUN", "2001-01-03 RERUN", "2001-01-04 RERUN");
            assertThat(stale.partitions().get(1).reason()).startsWith("built with spec sha256 ").endsWith("opens attempt 1");
            assertThat(backfill.builtRange(changed).map(r -> r[0] + ".." + r[1])).contains("2001-01-01..2001-01-04");
            BackfillReport rebuilt = backfill.run(changed, backfill.plan(changed, from, to, false, true), TWO_WORKERS_WAVES_OF_4,
                    Backfill.Progress.NONE);
            assertThat(rebuilt.outcomes()).extracting(o -> o.summary() == null ? -1 : o.summary().attempt()).containsOnly(1);
            assertThat(backfill.plan(changed, from, to, false, true).partitions()).extracting(PlannedPartition::action)
                    .containsOnly(Action.SKIP);
        }
    }

    /** Every latest quality result: dataset, partition, check, status, metric and message. */
    private static List<String> results(DSLContext dsl) {
        return dsl.resultQuery("SELECT r.dataset || ' ' || r.partition_key || ' ' || r.check_id || ' ' || r.status || ' '"
                + " || COALESCE(CAST(r.metric AS VARCHAR(40)), '-') || ' ' || r.message FROM sluice.quality_results r"
                + " WHERE r.result_id = (SELECT MAX(x.result_id) FROM sluice.quality_results x WHERE x.dataset = r.dataset"
                + " AND x.partition_key = r.partition_key AND x.check_id = r.check_id)"
                + " ORDER BY r.dataset, r.partition_key, r.check_id").fetch(0, String.class);
    }

    /** "partition version" of each published partition of {@code dataset}, in partition order. */
    private static List<String> published(DSLContext dsl, String dataset) {
        return dsl.resultQuery("SELECT partition_key || ' ' || version FROM sluice.published_partition WHERE dataset = ?"
                + " ORDER BY partition_key", dataset).fetch(0, String.class);
    }
}
