package dev.sluice.batch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.batch.job.RunSummary;
import dev.sluice.batch.testkit.DuckDbReference;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.warehouse.Warehouse;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.core.Partition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The flights pipeline's quality gates on the real data: the source's exact duplicates (a
 * uniqueness warning, counted as DuckDB counts them), a delay over a day (a validity warning), an
 * implausible delay (quarantined, so the transform gate passes), the 6-row partition 2001-07-01
 * (a row-count anomaly against the accepted history, and an incomplete day); and an error check
 * that fails its gate step, leaves the version unpublished, and passes on a fixed re-run.
 */
class FlightsQualityIT {

    @TempDir
    Path specDir;

    private static String result(DSLContext dsl, String dataset, String partition, String check) {
        return dsl.resultQuery("SELECT status || ' ' || unexpected_count || ' ' || COALESCE(CAST(metric AS VARCHAR(40)), '-')"
                + " FROM sluice.quality_results WHERE dataset = ? AND partition_key = ? AND check_id = ? ORDER BY result_id DESC",
                dataset, partition, check).fetch(0, String.class).get(0);
    }

    @Test
    void theRealQuirksAreFoundAndTheLastPartialDayIsAnAnomaly() throws Exception {
        PipelineSpec spec = TestHome.flightsSpec(TestHome.freshH2Url(), "sa", "");
        Path original = TestHome.originalFlights();
        List<String> days = List.of("2001-06-25", "2001-06-26", "2001-06-27", "2001-06-28", "2001-06-29", "2001-06-30");
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            PipelineRunner runner = new PipelineRunner(w, TestHome.withSampleData());
            DSLContext dsl = w.dsl();
            for (String day : days) {
                RunSummary s = runner.run(spec, Partition.parseDaily(day), RunOptions.plain());
                assertThat(s.status().name()).as(day + ": " + s.failure()).isEqualTo("COMPLETED");
                long dupes = DuckDbReference.duplicatedRows(original, LocalDate.parse(day));
                assertThat(result(dsl, "bronze.flights_raw", day, "no_exact_duplicates"))
                        .as(day).startsWith((dupes > 0 ? "WARNED " : "PASSED ") + dupes + " ");
            }
            // the reference's counts, written out: duplicated rows per day
            assertThat(days.stream().map(d -> result(dsl, "bronze.flights_raw", d, "no_exact_duplicates").split(" ")[1]).toList())
                    .containsExactly("2", "8", "4", "0", "2", "6");
            assertThat(days.stream().map(d -> result(dsl, "bronze.flights_raw", d, "row_count_in_line").split(" ")[0]).toList())
                    .containsExactly("INSUFFICIENT_HISTORY", "INSUFFICIENT_HISTORY", "INSUFFICIENT_HISTORY",
                            "INSUFFICIENT_HISTORY", "INSUFFICIENT_HISTORY", "PASSED");

            RunSummary last = runner.run(spec, Partition.parseDaily("2001-07-01"), RunOptions.plain());
            assertThat(last.status().name()).as("warn results do not block: %s", last.failure()).isEqualTo("COMPLETED");
            assertThat(result(dsl, "bronze.flights_raw", "2001-07-01", "row_count_in_line")).isEqualTo("WARNED 0 6.0");
            assertThat(dsl.resultQuery("SELECT message FROM sluice.quality_results WHERE partition_key = '2001-07-01'"
                    + " AND check_id = 'row_count_in_line'").fetchOne(0, String.class))
                    .isEqualTo("anomaly: row_count 6 is 0.04 % of the previous accepted 15626 (allowed 50 %–200 %)");
            assertThat(result(dsl, "silver.flights", "2001-07-01", "day_complete")).isEqualTo("WARNED 0 86400.0");
            assertThat(last.warnings()).anySatisfy(wn -> assertThat(wn).contains("row_count_in_line WARNED"))
                    .anySatisfy(wn -> assertThat(wn).contains("day_complete WARNED"));
            assertThat(dsl.resultQuery("SELECT SUM(flights) FROM gold.airport_daily_delays WHERE flight_date = DATE '2001-07-01'")
                    .fetchOne(0, Long.class)).isEqualTo(6L);

            // a delay over a day is real: a warning naming the value; an implausible one is quarantined
            runner.run(spec, Partition.parseDaily("2001-01-19"), RunOptions.plain());
            assertThat(result(dsl, "silver.flights", "2001-01-19", "delay_plausible")).startsWith("WARNED 1 ");
            assertThat(dsl.resultQuery("SELECT unexpected_json FROM sluice.quality_results WHERE partition_key = '2001-01-19'"
                    + " AND check_id = 'delay_plausible'").fetchOne(0, String.class)).isEqualTo("{\"values\":[1688]}");
            runner.run(spec, Partition.parseDaily("2001-02-27"), RunOptions.plain());
            assertThat(result(dsl, "silver.flights", "2001-02-27", "delay_plausible")).startsWith("PASSED 0 ");
            assertThat(dsl.resultQuery("SELECT rule_id FROM sluice.quarantine WHERE partition_key = '2001-02-27'")
                    .fetch(0, String.class)).containsExactly("delay_out_of_range");
            // the transform gate judges the rule's share: 1 row of the day's input, within max_share 0.001
            long input = DuckDbReference.rawRows(original, LocalDate.parse("2001-02-27"));
            assertThat(result(dsl, "silver.flights", "2001-02-27", "quarantine_delay_out_of_range"))
                    .isEqualTo("PASSED 1 " + (1.0 / input));
            assertThat(dsl.resultQuery("SELECT COUNT(DISTINCT boundary) FROM sluice.quality_results").fetchOne(0, Integer.class))
                    .isEqualTo(3);
        }
    }

    @Test
    void aFailedErrorCheckBlocksPublishingAndAFixedCheckPassesOnRestart() throws Exception {
        Path specFile = TestHome.copyFlightsSpec(specDir);
        String good = TestHome.editSpec(specFile, "column: avg_delay_min, min_value: -120, max_value: 2880}",
                "column: avg_delay_min, min_value: -120, max_value: 5}");
        var env = TestHome.environment(TestHome.withSampleData(), TestHome.freshH2Url(), "sa", "");
        PipelineSpecLoader loader = new PipelineSpecLoader(env.interpolator());
        Partition day = Partition.parseDaily("2001-02-22");
        PipelineSpec strictSpec = loader.load(specFile);
        try (Warehouse w = Warehouse.open(strictSpec.warehouse())) {
            PipelineRunner runner = new PipelineRunner(w, TestHome.withSampleData());
            DSLContext dsl = w.dsl();
            RunSummary failed = runner.run(strictSpec, day, RunOptions.plain());
            assertThat(failed.status().name()).isEqualTo("FAILED");
            assertThat(failed.failure()).startsWith("step gate.gold.airport_daily_delays failed: gold.airport_daily_delays partition"
                    + " 2001-02-22: check avg_delay_in_range (expect_column_values_to_be_between) failed: ")
                    .contains("version 1 is not published");
            assertThat(result(dsl, "gold.airport_daily_delays", "2001-02-22", "avg_delay_in_range")).startsWith("FAILED ");
            long tooHigh = dsl.resultQuery("SELECT unexpected_count FROM sluice.quality_results WHERE check_id = 'avg_delay_in_range'")
                    .fetchOne(0, Long.class);
            assertThat(tooHigh).isEqualTo(dsl.resultQuery("SELECT COUNT(*) FROM gold.airport_daily_delays_versions"
                    + " WHERE _partition = '2001-02-22' AND avg_delay_min > 5").fetchOne(0, Long.class)).isPositive();
            assertThat(dsl.fetchCount(dsl.selectFrom("gold.airport_daily_delays"))).as("nothing published").isZero();
            assertThat(dsl.fetchCount(dsl.selectFrom("silver.flights"))).as("silver passed its gate").isEqualTo(16563);

            Files.writeString(specFile, good);
            RunSummary fixed = runner.run(loader.load(specFile), day, RunOptions.plain());
            assertThat(fixed.status().name()).isEqualTo("COMPLETED");
            assertThat(fixed.restarted()).isTrue();
            assertThat(result(dsl, "gold.airport_daily_delays", "2001-02-22", "avg_delay_in_range")).startsWith("PASSED 0 ");
            assertThat(dsl.resultQuery("SELECT SUM(flights) FROM gold.airport_daily_delays").fetchOne(0, Long.class)).isEqualTo(16563L);
        }
    }

    /**
     * A rule's quarantine share is judged against the day's input rows both when the gate runs
     * right after Silver's step (the step's own count, in the same job execution) and when a
     * restart runs the gate alone (counted again): 2001-02-22 quarantines 1 row (the delay of
     * -953 min), over a max_share of 0.00001 (fails), then 0.001 (passes).
     */
    @Test
    void aQuarantineShareIsJudgedAgainstTheDaysInputInTheJobAndOnRestart() throws Exception {
        Path specFile = TestHome.copyFlightsSpec(specDir);
        String good = TestHome.editSpec(specFile, "max_share: 0.001 ", "max_share: 0.00001 ");
        var env = TestHome.environment(TestHome.withSampleData(), TestHome.freshH2Url(), "sa", "");
        PipelineSpecLoader loader = new PipelineSpecLoader(env.interpolator());
        Partition day = Partition.parseDaily("2001-02-22");
        long input = DuckDbReference.rawRows(TestHome.originalFlights(), LocalDate.parse("2001-02-22"));
        try (Warehouse w = Warehouse.open(loader.load(specFile).warehouse())) {
            PipelineRunner runner = new PipelineRunner(w, TestHome.withSampleData());
            DSLContext dsl = w.dsl();
            RunSummary failed = runner.run(loader.load(specFile), day, RunOptions.plain());
            assertThat(failed.status().name()).isEqualTo("FAILED");
            assertThat(failed.failure()).startsWith("step gate.silver.flights failed: ")
                    .contains("1 of " + input + " input row(s) quarantined by rule delay_out_of_range");
            assertThat(result(dsl, "silver.flights", "2001-02-22", "quarantine_delay_out_of_range"))
                    .isEqualTo("FAILED 1 " + (1.0 / input));

            Files.writeString(specFile, good);
            RunSummary fixed = runner.run(loader.load(specFile), day, RunOptions.plain());
            assertThat(fixed.status().name()).isEqualTo("COMPLETED");
            assertThat(fixed.restarted()).isTrue();
            assertThat(result(dsl, "silver.flights", "2001-02-22", "quarantine_delay_out_of_range"))
                    .isEqualTo("PASSED 1 " + (1.0 / input));
        }
    }
}
