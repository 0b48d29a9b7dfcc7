package dev.sluice.batch.lakehouse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.backfill.Backfill;
import dev.sluice.batch.backfill.BackfillPlan;
import dev.sluice.batch.backfill.BackfillReport;
import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.Partition;
import dev.sluice.spark.LakehouseCatalog;
import dev.sluice.spark.SparkSessions;
import dev.sluice.warehouse.Warehouse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.spark.sql.Row;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;

/**
 * A backfill on the lakehouse engine: four partitions, two at a time (their Iceberg tables created
 * by both at once), each Silver/Gold table written for the wave by one Spark job (one staged
 * commit: the four partitions' version branches point at one snapshot), each gate judging the
 * wave's Iceberg rows in one Spark pass; every quality
 * result equals the warehouse engine's one-by-one run of the same days, check for check, and the
 * Gold rows equal the warehouse engine's ({@code flights_lake} names its datasets {@code lake_*}).
 */
class BackfillLakehouseIT {

    @Test
    void aWaveOnTheLakehouseIsJudgedAsTheWarehouseJudgesEachPartition() {
        LocalDate from = LocalDate.parse("2001-06-28");
        LocalDate to = LocalDate.parse("2001-07-01");
        Path lake = TestHome.projectRoot().resolve("target/it-lakehouses/backfill-" + UUID.randomUUID()).toAbsolutePath();
        String url = TestHome.freshH2Url();
        PipelineSpec warehouseSpec = TestHome.flightsSpec(TestHome.freshH2Url(), "sa", "");
        PipelineSpec lakeSpec = TestHome.projectSpec("flights_lake", url, "sa", "", Map.of("SLUICE_LAKEHOUSE", lake.toString()));
        try (Warehouse a = Warehouse.open(warehouseSpec.warehouse()); Warehouse b = Warehouse.open(lakeSpec.warehouse(), 8)) {
            PipelineRunner sequential = new PipelineRunner(a, TestHome.withSampleData());
            for (LocalDate d = from; !d.isAfter(to); d = d.plusDays(1)) {
                assertThat(sequential.run(warehouseSpec, Partition.daily(d), RunOptions.plain()).status().name()).isEqualTo("COMPLETED");
            }

            Backfill backfill = new Backfill(new PipelineRunner(b, TestHome.withSampleData()), Clock.systemUTC());
            BackfillPlan plan = backfill.plan(lakeSpec, from, to, false);
            BackfillReport report = backfill.run(lakeSpec, plan, new Backfill.Options(2, 4, "test"), Backfill.Progress.NONE);
            assertThat(report.status().name()).as("%s", report.outcomes()).isEqualTo("COMPLETED");
            assertThat(report.gateBatches()).as("one wave × three gates, each one pass").isEqualTo(3);

            assertThat(results(b.dsl())).isNotEmpty().containsExactlyElementsOf(results(a.dsl()));
            var spark = SparkSessions.lakehouse(lakeSpec.sparkMaster(), new LakehouseCatalog(url, "sa", "", lake.toString()));
            List<String> lakeGold = spark.sql("SELECT concat_ws(' ', CAST(flight_date AS STRING), origin, CAST(flights AS STRING),"
                    + " CAST(delayed_15 AS STRING), CAST(max_delay_min AS STRING), CAST(total_distance_mi AS STRING))"
                    + " FROM gold.lake_airport_daily_delays ORDER BY 1").as(org.apache.spark.sql.Encoders.STRING()).collectAsList();
            List<String> warehouseGold = a.dsl().resultQuery("SELECT CAST(flight_date AS VARCHAR(10)) || ' ' || origin || ' '"
                    + " || CAST(flights AS VARCHAR(20)) || ' ' || CAST(delayed_15 AS VARCHAR(20)) || ' ' || CAST(max_delay_min AS VARCHAR(20))"
                    + " || ' ' || CAST(total_distance_mi AS VARCHAR(20)) FROM gold.airport_daily_delays ORDER BY 1").fetch(0, String.class);
            assertThat(lakeGold).hasSizeGreaterThan(500).isEqualTo(warehouseGold);
            // the monthly rollup, rebuilt once per month of the wave (June by 06-30's run, July by 07-01's), equals the
            // warehouse's, rebuilt by every day's run
            List<String> lakeMonths = spark.sql("SELECT concat_ws(' ', flight_month, origin, CAST(days AS STRING), CAST(flights AS STRING),"
                    + " CAST(delayed_15 AS STRING), CAST(max_delay_min AS STRING)) FROM gold.lake_airport_monthly_delays ORDER BY 1")
                    .as(org.apache.spark.sql.Encoders.STRING()).collectAsList();
            List<String> warehouseMonths = a.dsl().resultQuery("SELECT flight_month || ' ' || origin || ' ' || CAST(days AS VARCHAR(20))"
                    + " || ' ' || CAST(flights AS VARCHAR(20)) || ' ' || CAST(delayed_15 AS VARCHAR(20)) || ' '"
                    + " || CAST(max_delay_min AS VARCHAR(20)) FROM gold.airport_monthly_delays ORDER BY 1").fetch(0, String.class);
            assertThat(lakeMonths).hasSizeGreaterThan(200).isEqualTo(warehouseMonths).anyMatch(r -> r.startsWith("2001-06 "))
                    .anyMatch(r -> r.startsWith("2001-07 "));
            assertThat(report.outcomes()).extracting(o -> o.partition().key() + " " + o.summary().steps().stream()
                    .filter(st -> st.step().equals("gold.lake_airport_monthly_delays")).mapToLong(st -> st.rowsWritten()).sum())
                    .as("rollup rows written by each day's run").startsWith("2001-06-28 0", "2001-06-29 0").doesNotContain("2001-06-30 0", "2001-07-01 0");
            for (String t : List.of("silver.lake_flights", "gold.lake_airport_daily_delays", "gold.lake_route_daily")) {
                List<Row> heads = spark.sql("SELECT name, snapshot_id FROM " + t + ".refs WHERE name LIKE 'sluice_v1_%' ORDER BY name")
                        .collectAsList();
                assertThat(heads).as("%s: one version branch per partition", t).extracting(r -> r.getString(0))
                        .containsExactly("sluice_v1_2001_06_28", "sluice_v1_2001_06_29", "sluice_v1_2001_06_30", "sluice_v1_2001_07_01");
                assertThat(heads.stream().map(r -> r.getLong(1)).distinct()).as("%s: the wave's one staged commit", t).hasSize(1);
                assertThat(spark.sql("SELECT COUNT(*) FROM " + t + " VERSION AS OF 'sluice_v1_2001_06_30' WHERE _sluice_partition = '2001-06-30'")
                        .first().getLong(0)).as("%s: a version read through its branch", t)
                        .isEqualTo(spark.sql("SELECT COUNT(*) FROM " + t + " WHERE _sluice_partition = '2001-06-30'").first().getLong(0))
                        .isPositive();
            }
        }
    }

    /** The latest result of every batch check of every partition: dataset, partition, check, status, metric and message. */
    private static List<String> results(DSLContext dsl) {
        // the lakehouse spec names its datasets lake_*: compared by the warehouse spec's names
        return dsl.resultQuery("SELECT REPLACE(r.dataset, '.lake_', '.') || ' ' || r.partition_key || ' ' || r.check_id || ' ' || r.status || ' '"
                + " || COALESCE(CAST(r.metric AS VARCHAR(40)), '-') || ' ' || r.message FROM sluice.quality_results r"
                + " WHERE r.result_id = (SELECT MAX(x.result_id) FROM sluice.quality_results x WHERE x.dataset = r.dataset"
                + " AND x.partition_key = r.partition_key AND x.check_id = r.check_id)"
                + " AND r.check_id NOT LIKE 'reconcile_%'"   // the warehouse spec's hot-path reconciliation: no hot path on the lakehouse
                + " ORDER BY r.dataset, r.partition_key, r.check_id").fetch(0, String.class);
    }
}
