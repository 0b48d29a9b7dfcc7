package dev.sluice.batch.lakehouse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.control.version.PartitionVersions;
import dev.sluice.engine.LayerEngine;
import dev.sluice.engine.LayerEngines;
import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.batch.job.RunSummary;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.config.SluiceEnvironment;
import dev.sluice.config.TableSpec;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import dev.sluice.spark.LakehouseCatalog;
import dev.sluice.spark.SparkSessions;
import dev.sluice.warehouse.Warehouse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Audit then publish, versions and rollback on the lakehouse engine ({@code pipelines/flights_lake.yaml}
 * with a plausibility check added and {@code versions.keep: 5}), on two days:
 * <ol>
 *   <li>a version whose ERROR gate fails (its Gold SQL inflates {@code flights}) leaves the
 *       published partition exactly as it was: the same data files (paths and sizes), the same
 *       rows, version 1 still published; the candidate is kept on its branch;</li>
 *   <li>after a new version of both days, rolling one day back to version 1 restores it
 *       checksum-identical, from the very same data files, while the other day keeps its newest
 *       version; the rolled-back version stays readable by time travel;</li>
 *   <li>two partitions' versions published at the same moment from two threads both land, each
 *       partition holding exactly its branch's files.</li>
 * </ol>
 * H2 catalog.
 */
class LakehouseVersionsIT {

    private static final Partition D1 = Partition.parseDaily("2001-07-01");
    private static final Partition D2 = Partition.parseDaily("2001-06-30");
    private static final String GOLD = "gold.lake_airport_daily_delays";

    @TempDir
    Path dir;

    @Test
    void aFailedGateChangesNothingRollbackRestoresOneDayAndPublishesDoNotUndoEachOther() throws Exception {
        String url = TestHome.freshH2Url();
        Path lake = TestHome.projectRoot().resolve("target/it-lakehouses/versions-" + java.util.UUID.randomUUID()).toAbsolutePath();
        PipelineSpec base = spec("base", url, lake, "");
        PipelineSpec inflated = spec("inflated", url, lake, "COUNT(*) + 1000000 AS flights");
        PipelineSpec shifted = spec("shifted", url, lake, "COUNT(*) + 1000 AS flights");
        try (Warehouse w = Warehouse.open(base.warehouse())) {
            PipelineRunner runner = new PipelineRunner(w, TestHome.withSampleData());
            SparkSession spark = SparkSessions.lakehouse(base.sparkMaster(), new LakehouseCatalog(url, "sa", "", lake.toString()));
            LayerEngine engine = LayerEngines.on(w).forPipeline(base);
            PartitionVersions versions = new PartitionVersions(w.dsl()); // what is published is the control plane's record
            TableSpec gold = base.table(DatasetRef.parse(GOLD)).orElseThrow();
            for (Partition p : List.of(D1, D2)) {
                assertThat(runner.run(base, p, RunOptions.plain()).failure()).as("base %s", p).isNull();
            }
            Set<String> filesV1 = files(spark, D1);
            String d1v1 = checksum(spark, D1, null);
            String d2v1 = checksum(spark, D2, null);
            assertThat(filesV1).isNotEmpty();

            // 1. the gate judges the staged version and fails it: nothing readers see changes
            RunSummary failed = runner.run(inflated, D1, RunOptions.plain().withRerun(true));
            assertThat(failed.status().name()).isEqualTo("FAILED");
            assertThat(failed.failure()).contains("flights_plausible");
            assertThat(files(spark, D1)).isEqualTo(filesV1);
            assertThat(checksum(spark, D1, null)).isEqualTo(d1v1);
            assertThat(versions.published(gold.table(), D1)).contains(1);
            assertThat(engine.keptVersions(gold, D1)).containsExactly(1, 2);
            assertThat(spark.sql("SELECT MIN(flights) FROM " + GOLD + " VERSION AS OF 'sluice_v2_2001_07_01'"
                    + " WHERE _sluice_partition = '" + D1 + "'").first().getLong(0)).isGreaterThan(1_000_000L);

            // 2. a new version of both days, then day 1 rolled back to version 1
            for (Partition p : List.of(D1, D2)) {
                assertThat(runner.run(shifted, p, RunOptions.plain().withRerun(true)).failure()).as("shifted %s", p).isNull();
            }
            assertThat(versions.published(gold.table(), D1)).contains(3);
            assertThat(versions.published(gold.table(), D2)).contains(2);
            String d1v3 = checksum(spark, D1, null);
            String d2v2 = checksum(spark, D2, null);
            assertThat(d1v3).isNotEqualTo(d1v1);
            assertThat(d2v2).isNotEqualTo(d2v1);
            assertThat(engine.rollback(gold, D1, 1, "test", "inflated counts")).isEqualTo(1);
            assertThat(checksum(spark, D1, null)).isEqualTo(d1v1);
            assertThat(files(spark, D1)).as("version 1's own data files").isEqualTo(filesV1);
            assertThat(checksum(spark, D2, null)).as("the neighbouring day keeps its newest version").isEqualTo(d2v2);
            assertThat(versions.published(gold.table(), D1)).contains(1);
            assertThat(versions.lastRollback(gold.table(), D1).orElseThrow().toVersion()).isEqualTo(1);
            assertThat(checksum(spark, D1, "sluice_v3_2001_07_01")).as("time travel to the rolled-back version").isEqualTo(d1v3);

            // 3. two partitions' new versions published at once
            LayerEngine shiftedEngine = LayerEngines.on(w).forPipeline(shifted);
            TableSpec shiftedGold = shifted.table(DatasetRef.parse(GOLD)).orElseThrow();
            Set<String> d2Before = files(spark, D2);
            RunId r1 = RunId.newId();
            RunId r2 = RunId.newId();
            int v1 = shiftedEngine.write(shiftedGold, D1, r1).version();
            int v2 = shiftedEngine.write(shiftedGold, D2, r2).version();
            assertThat(List.of(v1, v2)).containsExactly(4, 3);
            String staged1 = checksum(spark, D1, "sluice_v4_2001_07_01");
            String staged2 = checksum(spark, D2, "sluice_v3_2001_06_30");
            assertThat(checksum(spark, D1, null)).isEqualTo(d1v1);
            CyclicBarrier together = new CyclicBarrier(2);
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                Future<?> a = pool.submit(() -> {
                    together.await();
                    shiftedEngine.publish(shiftedGold, D1, v1, r1);
                    return null;
                });
                Future<?> b = pool.submit(() -> {
                    together.await();
                    shiftedEngine.publish(shiftedGold, D2, v2, r2);
                    return null;
                });
                a.get(5, TimeUnit.MINUTES);
                b.get(5, TimeUnit.MINUTES);
            } finally {
                pool.shutdownNow();
            }
            assertThat(staged1).as("version 4 of day 1 is the shifted rows again").isEqualTo(d1v3);
            assertThat(staged2).as("version 3 of day 2 is the shifted rows again").isEqualTo(d2v2);
            assertThat(checksum(spark, D1, null)).as("day 1 published (lake %s)", lake).isEqualTo(staged1);
            assertThat(checksum(spark, D2, null)).as("day 2 published").isEqualTo(staged2);
            assertThat(versions.published(gold.table(), D1)).contains(4);
            assertThat(versions.published(gold.table(), D2)).contains(3);
            assertThat(paths(spark, D1)).isEqualTo(branchFiles(spark, D1, "sluice_v4_2001_07_01"));
            assertThat(paths(spark, D2)).isEqualTo(branchFiles(spark, D2, "sluice_v3_2001_06_30"));
            assertThat(files(spark, D2)).isNotEqualTo(d2Before);
        }
    }

    /** The shipped lakehouse spec with a plausibility check and five kept versions; {@code flights} replaces Gold's count when not empty. */
    private PipelineSpec spec(String name, String url, Path lake, String flights) throws Exception {
        Path specDir = Files.createDirectories(dir.resolve(name + "/contracts")).getParent();
        for (String c : List.of("flights.v1.yaml", "airports.v1.yaml")) {
            Files.copy(TestHome.projectRoot().resolve("pipelines/contracts/" + c), specDir.resolve("contracts/" + c));
        }
        String text = Files.readString(TestHome.projectRoot().resolve("pipelines/flights_lake.yaml"));
        String check = "        - {id: flights_counted, expect: expect_column_min_to_be_between, column: flights, min_value: 1}\n";
        assertThat(text).contains(check).contains("               COUNT(*) AS flights,\n               SUM(CASE WHEN delay_min >= 15")
                .contains("pipeline: flights_lake\n");
        text = text.replace(check, check
                + "        - {id: flights_plausible, expect: expect_column_max_to_be_between, column: flights, max_value: 100000}\n")
                .replace("pipeline: flights_lake\n", "pipeline: flights_lake\nversions: {keep: 5}\n");
        if (!flights.isEmpty()) {
            text = text.replace("               COUNT(*) AS flights,\n               SUM(CASE WHEN delay_min >= 15",
                    "               " + flights + ",\n               SUM(CASE WHEN delay_min >= 15");
        }
        Path file = Files.writeString(specDir.resolve("flights_lake.yaml"), text);
        Map<String, String> env = new HashMap<>(TestHome.environment(TestHome.withSampleData(), url, "sa", "").variables());
        env.put("SLUICE_LAKEHOUSE", lake.toString());
        return new PipelineSpecLoader(new SluiceEnvironment(env).interpolator()).load(file);
    }

    /** The data files of Gold's partition on main: path and size. */
    private static Set<String> files(SparkSession spark, Partition p) {
        return fileSet(spark.sql("SELECT file_path, file_size_in_bytes FROM " + GOLD + ".files WHERE partition._sluice_partition = '"
                + p + "'").collectAsList());
    }

    /** The paths of Gold's data files of the partition on main. */
    private static Set<String> paths(SparkSession spark, Partition p) {
        Set<String> out = new TreeSet<>();
        files(spark, p).forEach(f -> out.add(f.substring(0, f.lastIndexOf(' '))));
        return out;
    }

    /**
     * The paths of the data files holding the partition's rows at a branch (Iceberg's {@code _file}
     * column: its {@code files} metadata table cannot be read at a branch with a partition filter,
     * "Cannot find source column for partition field").
     */
    private static Set<String> branchFiles(SparkSession spark, Partition p, String branch) {
        return new TreeSet<>(spark.sql("SELECT DISTINCT _file FROM " + GOLD + " VERSION AS OF '" + branch
                + "' WHERE _sluice_partition = '" + p + "'").as(org.apache.spark.sql.Encoders.STRING()).collectAsList());
    }

    private static Set<String> fileSet(List<Row> rows) {
        Set<String> out = new TreeSet<>();
        rows.forEach(r -> out.add(r.getString(0) + " " + r.getLong(1)));
        return out;
    }

    /** Gold's partition (declared columns) as a count and a SHA-256 of its rows in a fixed order; on main, or at a branch. */
    private static String checksum(SparkSession spark, Partition p, String branch) {
        Row r = spark.sql("SELECT COUNT(*), sha2(concat_ws('|', sort_array(collect_list(to_json(struct(flight_date, origin, flights,"
                + " delayed_15, avg_delay_min, max_delay_min, total_distance_mi))))), 256) FROM " + GOLD
                + (branch == null ? "" : " VERSION AS OF '" + branch + "'") + " WHERE _sluice_partition = '" + p + "'").first();
        assertThat(r.getLong(0)).as("Gold rows of %s", p).isPositive();
        return r.getLong(0) + ":" + r.getString(1);
    }
}
