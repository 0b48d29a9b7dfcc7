package dev.sluice.operations;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.engine.LayerEngines;
import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.batch.job.RunSummary;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.Partition;
import dev.sluice.operations.erase.Erasure;
import dev.sluice.spark.LakehouseCatalog;
import dev.sluice.spark.SparkSessions;
import dev.sluice.warehouse.Warehouse;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@code sluice erase} on the lakehouse engine ({@code pipelines/flights_lake.yaml}): after the
 * erasure the raw value is in no data file of any remaining snapshot of the Bronze table, the files
 * that held it are gone from disk, and the audit row counts the rows.
 */
class LakehouseErasureIT {

    @Test
    void theRawValueIsInNoDataFileOfAnyRemainingSnapshot() {
        Path lake = TestHome.projectRoot().resolve("target/it-lakehouses/erase-" + java.util.UUID.randomUUID()).toAbsolutePath();
        String url = TestHome.freshH2Url();
        PipelineSpec spec = TestHome.projectSpec("flights_lake", url, "sa", "", Map.of("SLUICE_LAKEHOUSE", lake.toString()));
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            RunSummary run = new PipelineRunner(w, TestHome.withSampleData()).run(spec, Partition.parseDaily("2001-07-01"), RunOptions.plain());
            assertThat(run.failure()).isNull();
            assertThat(run.bronzeRows()).isEqualTo(6);
            SparkSession spark = SparkSessions.lakehouse(spec.sparkMaster(), new LakehouseCatalog(url, "sa", "", lake.toString()));
            String origin = spark.sql("SELECT MIN(origin) FROM bronze.lake_flights_raw").first().getString(0);
            long holding = spark.sql("SELECT COUNT(*) FROM bronze.lake_flights_raw WHERE origin = '" + origin + "'").first().getLong(0);
            assertThat(holding).isPositive();
            List<String> filesBefore = spark.sql("SELECT file_path FROM bronze.lake_flights_raw.all_data_files").as(
                    org.apache.spark.sql.Encoders.STRING()).collectAsList();
            assertThat(filesBefore).isNotEmpty().allSatisfy(f -> assertThat(Files.exists(path(f))).isTrue());

            Erasure.Result r = new TransactionTemplate(w.transactionManager()).execute(s ->
                    new Erasure(w.dsl(), LayerEngines.on(w).forPipeline(spec)).erase(spec, "origin", origin, "dpo@example.org", "request 2026-201"));

            assertThat(r.bronzeRows()).isEqualTo(holding);
            assertThat(r.partitions()).containsExactly("2001-07-01");
            assertThat(spark.sql("SELECT COUNT(*) FROM bronze.lake_flights_raw WHERE origin = '" + origin + "'").first().getLong(0)).isZero();
            assertThat(spark.sql("SELECT COUNT(*) FROM bronze.lake_flights_raw WHERE origin = '[erased #" + r.erasureId() + "]'").first().getLong(0))
                    .isEqualTo(holding);
            assertThat(spark.sql("SELECT COUNT(*) FROM bronze.lake_flights_raw.snapshots").first().getLong(0)).isEqualTo(1);
            List<String> remaining = spark.sql("SELECT DISTINCT file_path FROM bronze.lake_flights_raw.all_data_files").as(
                    org.apache.spark.sql.Encoders.STRING()).collectAsList();
            // every data file of every remaining snapshot, read as plain Parquet: all six rows, none with the value
            Row files = spark.read().parquet(remaining.toArray(String[]::new))
                    .selectExpr("COUNT(*)", "COUNT_IF(origin = '" + origin + "')").first();
            assertThat(files.getLong(0)).isEqualTo(6);
            assertThat(files.getLong(1)).isZero();
            assertThat(filesBefore).as("the files that held the value are deleted").anySatisfy(f -> assertThat(Files.exists(path(f))).isFalse());
            assertThat(w.dsl().resultQuery("SELECT bronze_rows, partitions FROM sluice.erasure_log WHERE erasure_id = ?", r.erasureId())
                    .fetchOne().intoList()).containsExactly(holding, "2001-07-01");
        }
    }

    private static Path path(String file) {
        return file.startsWith("file:") ? Path.of(URI.create(file)) : Path.of(file);
    }
}
