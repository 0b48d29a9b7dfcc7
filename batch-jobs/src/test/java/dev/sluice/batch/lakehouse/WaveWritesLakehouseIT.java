package dev.sluice.batch.lakehouse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.backfill.Backfill;
import dev.sluice.batch.backfill.BackfillReport;
import dev.sluice.batch.backfill.PartitionOutcome;
import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.testkit.PricesPipeline;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.PipelineSpec;
import dev.sluice.spark.LakehouseCatalog;
import dev.sluice.spark.SparkSessions;
import dev.sluice.warehouse.Warehouse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;
import java.util.List;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A backfill wave on the lakehouse writes each table for all its partitions in one Spark job, and
 * each partition still gets exactly what a write of its own gives: {@code merge-on-key} upserts
 * each day into that day's published rows (a re-run whose files hold b changed and c new but no
 * longer a keeps a), and a day whose rows break the table's key fails alone, naming the key and
 * values, while the other days of the wave publish. The Bronze loads of the wave's days, completed
 * by parallel threads, are each compacted into one data file. A day whose rows make the SQL fail
 * fails alone too.
 */
class WaveWritesLakehouseIT {

    @TempDir
    Path home;

    private void land(String day, String csv) throws Exception {
        Path dir = Files.createDirectories(home.resolve("landing/prices/dt=" + day));
        Files.writeString(dir.resolve("prices.csv"), csv);
    }

    @Test
    void aWaveMergesEachDayIntoItsOwnRowsAndABrokenKeyFailsOnlyItsDay() throws Exception {
        Path lake = home.resolve("lake").toAbsolutePath();
        Path specFile = PricesPipeline.onLakehouse(home, lake);
        land("2001-03-01", "code,price\na,10\nb,20\n");
        land("2001-03-02", "code,price\na,1\n");
        land("2001-03-03", "code,price\nx,5\n");
        PipelineSpec spec = TestHome.load(home, specFile);
        LocalDate from = LocalDate.parse("2001-03-01");
        LocalDate to = LocalDate.parse("2001-03-03");
        try (Warehouse w = Warehouse.open(spec.warehouse(), 8)) {
            Backfill backfill = new Backfill(new PipelineRunner(w, home), Clock.systemUTC());
            BackfillReport first = backfill.run(spec, backfill.plan(spec, from, to, false), new Backfill.Options(2, 3, "test"),
                    Backfill.Progress.NONE);
            assertThat(first.status().name()).as("%s", first.outcomes()).isEqualTo("COMPLETED");

            land("2001-03-01", "code,price\nb,25\nc,30\n");
            land("2001-03-02", "code,price\nd,2\nd,3\n"); // d twice: the key breaks in this day only
            land("2001-03-03", "code,price\nx,6\ny,7\n");
            BackfillReport rerun = backfill.run(spec, backfill.plan(spec, from, to, true), new Backfill.Options(2, 3, "test"),
                    Backfill.Progress.NONE);
            assertThat(rerun.outcomes()).extracting(o -> o.partition().key() + " " + o.status())
                    .containsExactly("2001-03-01 COMPLETED", "2001-03-02 FAILED", "2001-03-03 COMPLETED");
            PartitionOutcome broken = rerun.outcomes().get(1);
            assertThat(broken.message()).contains("silver.prices: key [code] is not unique in partition 2001-03-02 ([d] ×2)");

            SparkSession spark = SparkSessions.lakehouse(spec.sparkMaster(), new LakehouseCatalog(w.jdbcUrl(), "sa", "", lake.toString()));
            assertThat(rows(spark, "SELECT _sluice_partition || ' ' || code || '=' || price FROM silver.prices ORDER BY 1"))
                    .containsExactly("2001-03-01 a=10", "2001-03-01 b=25", "2001-03-01 c=30", "2001-03-02 a=1",
                            "2001-03-03 x=6", "2001-03-03 y=7");
            assertThat(rows(spark, "SELECT _sluice_partition || ' ' || codes || ' ' || total FROM gold.price_total ORDER BY 1"))
                    .containsExactly("2001-03-01 3 65", "2001-03-02 1 1", "2001-03-03 2 13");
            assertThat(rows(spark, "SELECT name FROM silver.prices.refs WHERE name LIKE 'sluice_v2_%' ORDER BY 1"))
                    .as("the failed day has no version 2").containsExactly("sluice_v2_2001_03_01", "sluice_v2_2001_03_03");
            assertThat(rows(spark, "SELECT CAST(COUNT(DISTINCT snapshot_id) AS STRING) FROM silver.prices.refs WHERE name LIKE 'sluice_v2_%'"))
                    .as("the two passing days of the re-run's wave: one staged commit").containsExactly("1");
            assertThat(rows(spark, "SELECT partition._sluice_partition || ' ' || COUNT(*) FROM bronze.prices_raw.files GROUP BY partition._sluice_partition ORDER BY 1"))
                    .as("each day's two loads compacted into one data file, though the days' loads completed at once")
                    .containsExactly("2001-03-01 1", "2001-03-02 1", "2001-03-03 1");
        }
    }

    /**
     * A day whose rows make the table's SQL fail at run time fails the wave's one job for every
     * day: the days are then written one by one, and only that day fails, with Spark's message.
     */
    @Test
    void aDayWhoseRowsFailTheSqlFailsAloneWhenItsWaveFails() throws Exception {
        Path lake = home.resolve("lake").toAbsolutePath();
        Path specFile = PricesPipeline.onLakehouse(home, lake,
                "SELECT code, CASE WHEN price < 0 THEN CAST(raise_error(concat('negative price of ', code)) AS BIGINT) ELSE price END AS price FROM {input} p");
        land("2001-03-01", "code,price\na,10\n");
        land("2001-03-02", "code,price\nb,-1\n");
        land("2001-03-03", "code,price\nc,5\n");
        PipelineSpec spec = TestHome.load(home, specFile);
        try (Warehouse w = Warehouse.open(spec.warehouse(), 8)) {
            Backfill backfill = new Backfill(new PipelineRunner(w, home), Clock.systemUTC());
            BackfillReport report = backfill.run(spec, backfill.plan(spec, LocalDate.parse("2001-03-01"), LocalDate.parse("2001-03-03"), false),
                    new Backfill.Options(2, 3, "test"), Backfill.Progress.NONE);
            assertThat(report.outcomes()).extracting(o -> o.partition().key() + " " + o.status())
                    .containsExactly("2001-03-01 COMPLETED", "2001-03-02 FAILED", "2001-03-03 COMPLETED");
            assertThat(report.outcomes().get(1).message()).contains("negative price of b");
            SparkSession spark = SparkSessions.lakehouse(spec.sparkMaster(), new LakehouseCatalog(w.jdbcUrl(), "sa", "", lake.toString()));
            assertThat(rows(spark, "SELECT _sluice_partition || ' ' || code || '=' || price FROM silver.prices ORDER BY 1"))
                    .containsExactly("2001-03-01 a=10", "2001-03-03 c=5");
            assertThat(rows(spark, "SELECT _sluice_partition || ' ' || codes || ' ' || total FROM gold.price_total ORDER BY 1"))
                    .containsExactly("2001-03-01 1 10", "2001-03-03 1 5");
        }
    }

    private static List<String> rows(SparkSession spark, String sql) {
        return spark.sql(sql).as(Encoders.STRING()).collectAsList();
    }
}
