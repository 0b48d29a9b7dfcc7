package dev.sluice.operations;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.engine.lakehouse.LakehousePurge;
import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.batch.job.RunSummary;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.Partition;
import dev.sluice.operations.purge.Purge;
import dev.sluice.spark.LakehouseCatalog;
import dev.sluice.spark.SparkSessions;
import dev.sluice.warehouse.Warehouse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * {@code sluice purge} on the lakehouse engine: a superseded version's record and branch go, every
 * table's snapshots older than the cutoff expire (the current one and the kept version's branch
 * head stay, the rows unchanged), orphan files older than the grace period are deleted and a
 * younger one stays (a write maybe in flight), and a
 * superseded Bronze load's rows go with one DELETE. A dry run counts the same and changes nothing.
 */
class LakehousePurgeIT {

    private static final List<String> TABLES = List.of("bronze.lake_flights_raw", "silver.lake_flights", "gold.lake_airport_daily_delays",
            "gold.lake_route_daily", "gold.lake_airport_monthly_delays");

    @Test
    void supersededHistoryGoesAndThePublishedRowsStay() throws Exception {
        Path lake = TestHome.projectRoot().resolve("target/it-lakehouses/purge-" + UUID.randomUUID()).toAbsolutePath();
        String url = TestHome.freshH2Url();
        PipelineSpec spec = TestHome.projectSpec("flights_lake", url, "sa", "",
                Map.of("SLUICE_LAKEHOUSE", lake.toString(), "SLUICE_BACKFILL_WINDOW", "P1D"));
        Clock later = Clock.offset(Clock.systemUTC(), Duration.ofDays(2));
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            PipelineRunner runner = new PipelineRunner(w, TestHome.withSampleData());
            Partition day = Partition.parseDaily("2001-07-01");
            RunSummary first = runner.run(spec, day, RunOptions.plain());
            assertThat(first.failure()).isNull();
            assertThat(runner.run(spec, day, RunOptions.plain().withRerun(true)).failure()).isNull();
            SparkSession spark = SparkSessions.lakehouse(spec.sparkMaster(), new LakehouseCatalog(url, "sa", "", lake.toString()));
            long snapshots = 0;
            for (String t : spec.tables().stream().map(x -> x.table().qualifiedName()).toList()) {
                // all but the current one and, on Silver/Gold, the published version's branch head (kept)
                snapshots += spark.sql("SELECT COUNT(*) FROM " + t + ".snapshots").first().getLong(0) - (t.startsWith("bronze.") ? 1 : 2);
            }
            assertThat(snapshots).as("the rerun's commits").isPositive();
            String gold = goldRows(spark);
            long versionOne = versionRecords(w, 1);
            assertThat(versionOne).isEqualTo(5);    // silver.lake_airports, silver.lake_flights and the three marts
            // the purge's clock is two days ahead: with a grace of three days, files last modified more than a day ago are old enough
            Path orphan = plant(lake.resolve("silver/lake_flights/data/_sluice_partition=2001-07-01"), Duration.ofDays(4));
            Path inFlight = plant(lake.resolve("silver/lake_flights/data/_sluice_partition=2001-07-01"), Duration.ofHours(12));
            Path bronzeOrphan = plant(lake.resolve("bronze/lake_flights_raw/data/_sluice_partition=2001-07-01"), Duration.ofDays(2));

            Purge purge = new Purge(w, later);
            Purge.Report dry = purge.run(spec, Duration.ofHours(12), Duration.ofDays(3), true);
            // version 1 of silver.lake_flights and the three marts: its record and its branch
            assertThat(dry.removed()).containsEntry("superseded versions", 4L).containsEntry("superseded Bronze loads", 0L)
                    .containsEntry("lakehouse snapshots", snapshots).containsEntry("lakehouse orphan files", 2L);
            assertThat(Files.exists(orphan)).as("a dry run deletes nothing").isTrue();
            assertThat(versionRecords(w, 1)).isEqualTo(versionOne);

            Purge.Report done = purge.run(spec, Duration.ofHours(12), Duration.ofDays(3), false);
            assertThat(done.removed()).isEqualTo(dry.removed());
            for (String t : TABLES) {
                assertThat(spark.sql("SELECT COUNT(*) FROM " + t + ".snapshots").first().getLong(0)).as("%s snapshots", t)
                        .isEqualTo(t.startsWith("bronze.") ? 1 : 2);
                if (!t.startsWith("bronze.")) {
                    assertThat(spark.sql("SELECT name FROM " + t + ".refs WHERE type = 'BRANCH' ORDER BY name")
                            .as(org.apache.spark.sql.Encoders.STRING()).collectAsList()).as("%s branches", t)
                            .containsExactly("main", t.endsWith("monthly_delays") ? "sluice_v2_2001_07" : "sluice_v2_2001_07_01");
                }
            }
            assertThat(Files.exists(orphan)).isFalse();
            assertThat(Files.exists(bronzeOrphan)).isFalse();
            assertThat(Files.exists(inFlight)).as("younger than the grace period: maybe a write in flight").isTrue();
            assertThat(versionRecords(w, 1)).as("superseded version records go; silver.lake_airports' only version stays").isEqualTo(1);
            assertThat(versionRecords(w, 2)).isEqualTo(4);
            assertThat(goldRows(spark)).as("the published rows").isEqualTo(gold);

            // a superseded Bronze load's rows: counted by a dry run, then deleted
            LakehousePurge lakePurge = new LakehousePurge(spec, w);
            var bronze = spec.table(DatasetRef.parse("bronze.lake_flights_raw")).orElseThrow();
            String source = "landing/flights/dt=2001-07-01/flights.parquet";
            assertThat(lakePurge.bronzeLoad(bronze, day.key(), source, first.runId().toString(), true)).isEqualTo(6);
            assertThat(spark.sql("SELECT COUNT(*) FROM bronze.lake_flights_raw").first().getLong(0)).isEqualTo(6);
            assertThat(lakePurge.bronzeLoad(bronze, day.key(), source, first.runId().toString(), false)).isEqualTo(6);
            assertThat(spark.sql("SELECT COUNT(*) FROM bronze.lake_flights_raw").first().getLong(0)).isZero();
        }
    }

    /** An uncommitted data file in {@code dir}, last modified {@code age} ago (by the real clock). */
    private static Path plant(Path dir, Duration age) throws java.io.IOException {
        Path orphan = Files.createDirectories(dir).resolve("orphan-" + UUID.randomUUID() + ".parquet");
        Files.writeString(orphan, "a write killed before its commit");
        Files.setLastModifiedTime(orphan, FileTime.from(Instant.now().minus(age)));
        return orphan;
    }

    private static String goldRows(SparkSession spark) {
        return String.join("\n", spark.sql("SELECT to_json(struct(*)) FROM (SELECT origin, flights, delayed_15, avg_delay_min,"
                + " max_delay_min, total_distance_mi FROM gold.lake_airport_daily_delays) ORDER BY 1").as(org.apache.spark.sql.Encoders.STRING())
                .collectAsList());
    }

    private static long versionRecords(Warehouse w, int version) {
        return w.dsl().resultQuery("SELECT COUNT(*) FROM sluice.partition_version WHERE version = ?", version).fetchOne(0, Long.class);
    }
}
