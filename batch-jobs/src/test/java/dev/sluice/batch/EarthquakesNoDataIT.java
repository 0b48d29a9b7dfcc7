package dev.sluice.batch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.batch.job.RunSummary;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.core.Partition;
import dev.sluice.warehouse.Warehouse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No data is not a pass, on real data: the USGS feed's last day (2018-02-07, 14 events) has no
 * PAGER alert and no MMI on any event, where the day before has both. A value check on {@code alert}
 * is NO_DATA and lets the day go on (its default, GE's vacuous truth); a maximum of {@code mmi} is
 * NO_DATA and blocks it (its default, GE's false) until the spec says {@code no_data: allow}, when a
 * plain run restarts at the gate and completes.
 */
class EarthquakesNoDataIT {

    @TempDir
    Path specDir;

    private static List<String> results(DSLContext dsl, String partition) {
        return dsl.resultQuery("SELECT check_id || ' ' || status || ' ' || COALESCE(CAST(metric AS VARCHAR(40)), '-') || ' ' || message"
                + " FROM sluice.quality_results WHERE partition_key = ? AND check_id IN ('alert_known', 'mmi_at_most_12')"
                + " ORDER BY result_id", partition).fetch(0, String.class);
    }

    @Test
    void aDayWithoutValuesIsNoDataAndBlocksOnlyWhereTheCheckSaysSo() throws Exception {
        Path project = TestHome.projectRoot().resolve("pipelines");
        Files.createDirectories(specDir.resolve("contracts"));
        Files.copy(project.resolve("contracts/earthquakes.v1.yaml"), specDir.resolve("contracts/earthquakes.v1.yaml"));
        String original = Files.readString(project.resolve("earthquakes.yaml"));
        String anchor = "        - {id: ids_mostly_present, expect: expect_column_values_to_not_be_null, column: id, mostly: 0.5}\n";
        assertThat(original).contains(anchor);
        String checks = anchor
                + "        - {id: alert_known, expect: expect_column_values_to_be_in_set, column: alert, value_set: [green, yellow, orange, red]}\n"
                + "        - {id: mmi_at_most_12, expect: expect_column_max_to_be_between, column: mmi, max_value: 12}\n";
        Path specFile = Files.writeString(specDir.resolve("earthquakes.yaml"), original.replace(anchor, checks));
        PipelineSpecLoader loader = new PipelineSpecLoader(
                TestHome.environment(TestHome.withSampleData(), TestHome.freshH2Url(), "sa", "").interpolator());
        try (Warehouse w = Warehouse.open(loader.load(specFile).warehouse())) {
            PipelineRunner runner = new PipelineRunner(w, TestHome.withSampleData());
            DSLContext dsl = w.dsl();

            RunSummary feb6 = runner.run(loader.load(specFile), Partition.parseDaily("2018-02-06"), RunOptions.plain());
            assertThat(feb6.failure()).isNull();
            assertThat(results(dsl, "2018-02-06")).containsExactly(
                    "alert_known PASSED 1.0 0 of 2 value(s) unexpected (0.000 %)",
                    "mmi_at_most_12 PASSED 6.7 measured 6.7");  // the feed: MMI 3.18 and 6.7, two green alerts

            RunSummary feb7 = runner.run(loader.load(specFile), Partition.parseDaily("2018-02-07"), RunOptions.plain());
            assertThat(feb7.status().name()).isEqualTo("FAILED");
            assertThat(feb7.failure()).isEqualTo("step gate.bronze.earthquakes_raw failed: bronze.earthquakes_raw partition 2018-02-07:"
                    + " check mmi_at_most_12 (expect_column_max_to_be_between) had no data: no values to measure; blocks (no_data: block)"
                    + " (required: max in (-∞, 12]). Fix the data (then --rerun) or the check (then a plain run restarts the gate).");
            assertThat(results(dsl, "2018-02-07")).containsExactly(
                    "alert_known NO_DATA - no values to judge: alert is NULL in all 14 row(s); the partition goes on (no_data: allow)",
                    "mmi_at_most_12 NO_DATA - no values to measure; blocks (no_data: block)");
            assertThat(dsl.fetchCount(dsl.selectFrom("silver.earthquakes"))).as("Silver waits for the gate").isEqualTo(213);

            Files.writeString(specFile, Files.readString(specFile).replace("max_value: 12}", "max_value: 12, no_data: allow}"));
            RunSummary fixed = runner.run(loader.load(specFile), Partition.parseDaily("2018-02-07"), RunOptions.plain());
            assertThat(fixed.failure()).isNull();
            assertThat(fixed.restarted()).isTrue();
            assertThat(results(dsl, "2018-02-07")).hasSize(4).last()
                    .isEqualTo("mmi_at_most_12 NO_DATA - no values to measure; the partition goes on (no_data: allow)");
            assertThat(dsl.fetchCount(dsl.selectFrom("silver.earthquakes"))).isEqualTo(213 + 14);
        }
    }
}
