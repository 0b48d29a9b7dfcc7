package dev.sluice.engine.lakehouse;


import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.Partition;
import dev.sluice.spark.LakehouseCatalog;
import dev.sluice.spark.SparkSessions;
import dev.sluice.warehouse.Warehouse;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.Table;
import org.apache.iceberg.spark.actions.SparkActions;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * Bronze compaction on the lakehouse leaves no file behind: two days of {@code flights_lake}'s
 * Bronze (16,565 and 16,909 rows) loaded in chunks of 2,000 rows (nine data files a day, each its
 * own commit) are compacted into one file a day, and afterwards no file under the Bronze table's
 * location is referenced by no snapshot. The orphans are counted by Iceberg's own
 * {@code DeleteOrphanFiles} Spark action (dry run, every file counted whatever its age), the
 * reference this engine's purge is measured against, and by {@link OrphanFiles}. Before, the nine
 * chunk files each compaction replaced stayed on disk.
 */
class BronzeCompactionOrphansIT {

    private static final String BRONZE = "bronze.lake_flights_raw";

    @Test
    void compactionRemovesTheChunkFilesItReplaced() {
        Path lake = TestHome.projectRoot().resolve("target/it-lakehouses/compaction-" + UUID.randomUUID()).toAbsolutePath();
        String url = TestHome.freshH2Url();
        PipelineSpec spec = TestHome.projectSpec("flights_lake", url, "sa", "",
                Map.of("SLUICE_LAKEHOUSE", lake.toString(), "SLUICE_BATCH_ROWS", "2000"));
        assertThat(spec.batchRows()).isEqualTo(2000);
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            PipelineRunner runner = new PipelineRunner(w, TestHome.withSampleData());
            for (String day : List.of("2001-02-22", "2001-02-23")) {
                assertThat(runner.run(spec, Partition.parseDaily(day), RunOptions.plain().withTables(List.of(BRONZE))).failure())
                        .as(day).isNull();
            }
            LakehouseCatalog catalog = new LakehouseCatalog(url, "sa", "", lake.toString());
            SparkSession spark = SparkSessions.lakehouse(spec.sparkMaster(), catalog);
            assertThat(spark.sql("SELECT _sluice_partition, COUNT(*) FROM " + BRONZE + " GROUP BY 1 ORDER BY 1").collectAsList())
                    .extracting(Object::toString).containsExactly("[2001-02-22,16565]", "[2001-02-23,16909]");
            assertThat(spark.sql("SELECT COUNT(*) FROM " + BRONZE + ".files").first().getLong(0)).as("one file a day").isEqualTo(2);
            Table table = IcebergTables.catalog(catalog).loadTable(LakehouseNames.iceberg(dev.sluice.core.DatasetRef.parse(BRONZE)));
            List<String> orphans = new ArrayList<>();
            SparkActions.get(spark).deleteOrphanFiles(table).olderThan(System.currentTimeMillis() + 60_000)
                    .deleteWith(orphans::add).execute();
            assertThat(orphans).as("files under %s no snapshot references (Iceberg's DeleteOrphanFiles)", table.location()).isEmpty();
            assertThat(OrphanFiles.find(table, Instant.now().plusSeconds(60))).as("OrphanFiles").isEmpty();
        }
    }
}
