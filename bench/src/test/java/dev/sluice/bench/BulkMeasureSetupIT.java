package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.control.run.RunStatus;
import dev.sluice.batch.job.RunSummary;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.config.SluiceEnvironment;
import dev.sluice.core.Partition;
import dev.sluice.config.WarehouseSpec;
import dev.sluice.formats.LocalParquetFile;
import dev.sluice.warehouse.Warehouse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CI slice of the medallion measure's one-partition run, which the smoke run skips with the other
 * whole-process measures: {@code flights_bulk} (the range as one snapshot, gates on), derived from
 * {@code pipelines/flights.yaml} as the measure derives it, runs through on two days and loads every
 * landed row. {@code ./sluice-bench --only medallion} once failed at {@code gate.silver.flights}
 * ({@code flight_date_in_partition}: "the partition has no nominal time") with nothing to say so
 * before a full bench run.
 */
class BulkMeasureSetupIT {

    @TempDir
    Path work;

    @Test
    void theOnePartitionFormOfFlightsRunsThroughWithItsGates() throws Exception {
        LocalDate from = LocalDate.parse("2001-06-30");
        LocalDate to = LocalDate.parse("2001-07-01"); // 15,632 rows: the smallest two days
        Path runHome = BackfillBench.prepareHome(TestHome.withSampleData(), work, from, to);
        Path specs = BackfillBench.prepareSpecs(HotPathBench.root().resolve("pipelines"), work.resolve("spec"));
        String url = TestHome.freshH2Url();
        PipelineSpec spec = new PipelineSpecLoader(new SluiceEnvironment(Map.of("SLUICE_HOME", runHome.toString(), "SLUICE_WAREHOUSE_URL", url))
                .interpolator()).load(specs.resolve("flights_bulk.yaml"));
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            // what `sluice run flights_bulk --partition 2001-07-01` runs
            RunSummary run = new PipelineRunner(w, runHome).run(spec, Partition.daily(to), RunOptions.plain());
            assertThat(run.status()).as("%s", run.failure()).isEqualTo(RunStatus.COMPLETED);
        }
        try (Warehouse w = Warehouse.open(new WarehouseSpec(url, "sa", ""))) {
            assertThat(w.dsl().fetchCount(w.dsl().selectFrom("bronze.flights_raw"))).as("every landed row of the two days")
                    .isEqualTo(landedRows(runHome.resolve("bulk-landing/flights")));
            long silver = w.dsl().fetchCount(w.dsl().selectFrom("silver.flights"));
            assertThat(silver).isPositive();
            assertThat(w.dsl().resultQuery("SELECT SUM(flights) FROM gold.airport_daily_delays").fetchOne(0, Long.class))
                    .as("every Silver flight counted once in the mart").isEqualTo(silver);
            assertThat(w.dsl().resultQuery("SELECT COUNT(*) FROM sluice.quality_results WHERE status = 'FAILED'").fetchOne(0, Long.class))
                    .isZero();
        }
    }

    /** Rows of the Parquet files in {@code dir}, from their footers. */
    private static long landedRows(Path dir) throws Exception {
        long rows = 0;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) {
                try (ParquetFileReader r = ParquetFileReader.open(new LocalParquetFile(f))) {
                    rows += r.getRecordCount();
                }
            }
        }
        return rows;
    }
}
