package dev.sluice.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.batch.job.LandingMissingException;
import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.batch.job.RunSummary;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.warehouse.Warehouse;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.FaultPoints;
import dev.sluice.core.Partition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.LocalDate;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What real landing zones do to a load, and what Sluice answers: a clear failure, never a silent loss. */
class BadLandedDataIT {

    @TempDir
    Path home;

    private static final Partition DAY = Partition.daily(LocalDate.parse("2001-07-01"));

    /** A home with the real 2001-07-01 flights and a copy of the real airports. */
    private void landFlights() throws Exception {
        Path sample = TestHome.withSampleData().resolve("landing");
        Path day = Files.createDirectories(home.resolve("landing/flights/dt=2001-07-01"));
        Files.copy(sample.resolve("flights/dt=2001-07-01/flights.parquet"), day.resolve("flights.parquet"));
        Files.createDirectories(home.resolve("landing/airports"));
        Files.copy(sample.resolve("airports/airports.csv"), home.resolve("landing/airports/airports.csv"));
    }

    @Test
    void aDuplicateReferenceKeyFailsTheRunAndARerunLoadsTheFixedFile() throws Exception {
        landFlights();
        Path airports = home.resolve("landing/airports/airports.csv");
        String original = Files.readString(airports);
        Files.writeString(airports, "ORD,Chicago O Hare DUPLICATE,Chicago,WI,USA,41.9,-87.9\n", StandardOpenOption.APPEND);
        PipelineSpec spec = TestHome.load(home, TestHome.projectRoot().resolve("pipelines/flights.yaml"));
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            PipelineRunner runner = new PipelineRunner(w, home);
            RunSummary failed = runner.run(spec, DAY, RunOptions.plain());
            assertThat(failed.status().name()).isEqualTo("FAILED");
            assertThat(failed.failure()).isEqualTo("step silver.airports failed: silver.airports: key [iata] is not unique"
                    + " in partition none ([ORD] ×2); a key identifies one row: check the input for duplicates");
            assertThat(w.dsl().fetchCount(w.dsl().selectFrom("silver.airports"))).as("nothing written").isZero();

            Files.writeString(airports, original);
            assertThat(runner.run(spec, DAY, RunOptions.plain()).status().name())
                    .as("a restart resumes at the failed step, over the Bronze rows already loaded").isEqualTo("FAILED");
            RunSummary rerun = runner.run(spec, DAY, RunOptions.plain().withRerun(true));
            assertThat(rerun.status().name()).isEqualTo("COMPLETED");
            assertThat(rerun.attempt()).isEqualTo(1);
            assertThat(rerun.silverRows()).isEqualTo(6);
            assertThat(w.dsl().fetchCount(w.dsl().selectFrom("silver.airports"))).isEqualTo(3376);
            assertThat(w.dsl().resultQuery("SELECT status FROM sluice.run WHERE attempt = 0").fetchOne(0, String.class))
                    .isEqualTo("ABANDONED");
            assertThat(w.dsl().fetchCount(w.dsl().selectFrom("bronze.airports_raw")))
                    .as("Bronze keeps both versions of the file").isEqualTo(3377 + 3376);
        }
    }

    @Test
    void anEmptyPartitionFolderIsMissingData() throws Exception {
        landFlights();
        Files.delete(home.resolve("landing/flights/dt=2001-07-01/flights.parquet"));
        PipelineSpec spec = TestHome.load(home, TestHome.projectRoot().resolve("pipelines/flights.yaml"));
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            assertThatThrownBy(() -> new PipelineRunner(w, home).run(spec, DAY, RunOptions.plain()))
                    .isInstanceOf(LandingMissingException.class)
                    .hasMessageContaining("landing/flights/dt=2001-07-01 is empty");
        }
    }

    /** The readings pipeline of the tests below: a CSV source, chunks of 2 rows, Silver and Gold over it. */
    private PipelineSpec readings() throws Exception {
        Path specFile = TestHome.writePipeline(home, "readings", """
                contract: readings
                version: 1
                columns:
                  - {name: id, type: long, nullable: false}
                  - {name: v, type: long}
                """, """
                pipeline: readings
                warehouse: {url: "${SLUICE_WAREHOUSE_URL}", user: sa, password: ""}
                ingest: {batch_rows: 2}
                sources:
                  - {name: readings, format: csv, path: "${SLUICE_HOME}/landing/readings/dt={partition}", contract: contracts/readings.v1.yaml}
                layers:
                  bronze: [{table: bronze.readings_raw, source: readings}]
                  silver:
                    - table: silver.readings
                      input: bronze.readings_raw
                      key: [id]
                      columns: {id: long, v: long, dup_count: long}
                      sql: SELECT id, v, COUNT(*) AS dup_count FROM {input} r GROUP BY id, v
                  gold:
                    - table: gold.readings_total
                      input: silver.readings
                      key: [total]
                      columns: {total: long}
                      sql: SELECT SUM(v) AS total FROM {input} s
                """);
        return TestHome.load(home, specFile);
    }

    /** While open, the {@code n}-th Bronze chunk of {@code step} fails inside its transaction (a lost connection, a full disk). */
    private static AutoCloseable bronzeChunkFails(String step, int n) {
        AtomicInteger reached = new AtomicInteger();
        return FaultPoints.observe(point -> {
            if (point.equals("bronze-chunk:" + step) && reached.incrementAndGet() == n) {
                throw new IllegalStateException("chunk " + n + " of " + step + " fails");
            }
        });
    }

    /**
     * A CSV whose row 4 (line 6) opens a quote that never closes: the file cannot be parsed to its
     * end, so it is refused whole before any write (exit 2), naming file, row and line, as a file its
     * contract refuses is; nothing lands and no attempt is recorded. The corrected file then loads.
     * It used to commit the chunk of rows 0–1 and fail the Bronze step (exit 1), its message saying
     * "row 4" beside commons-csv's "(startline 6)".
     */
    @Test
    void aCsvThatCannotBeParsedToItsEndIsRefusedBeforeAnyWrite() throws Exception {
        PipelineSpec spec = readings();
        Path day = Files.createDirectories(home.resolve("landing/readings/dt=2001-07-01"));
        Files.writeString(day.resolve("r.csv"), "id,v\n1,10\n2,20\n3,30\n4,40\n5,\"50\n6,60\n");
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            PipelineRunner runner = new PipelineRunner(w, home);
            assertThatThrownBy(() -> runner.run(spec, DAY, RunOptions.plain()))
                    .isInstanceOf(dev.sluice.core.BadInputException.class)
                    .hasMessage("landing/readings/dt=2001-07-01/r.csv, row 4: malformed CSV: the record starting on line 6"
                            + " (the header is line 1) cannot be parsed: a quoted field opens there (quote \") and is not closed"
                            + " before the end of the file");
            assertThat(w.dsl().fetchCount(w.dsl().selectFrom("bronze.readings_raw"))).as("nothing written").isZero();
            assertThat(w.dsl().fetchCount(w.dsl().selectFrom("sluice.run"))).as("no attempt recorded").isZero();

            Files.writeString(day.resolve("r.csv"), "id,v\n1,10\n2,20\n3,30\n4,40\n5,50\n6,60\n");
            RunSummary loaded = runner.run(spec, DAY, RunOptions.plain());
            assertThat(loaded.status().name()).isEqualTo("COMPLETED");
            assertThat(loaded.bronzeRows()).isEqualTo(6);
            assertThat(w.dsl().resultQuery("SELECT total FROM gold.readings_total").fetchOne(0, Long.class)).isEqualTo(210L);
        }
    }

    /**
     * A CSV source with chunks of 2 rows whose second chunk fails: Bronze commits rows 0–1, then
     * the step fails. The file is then changed (a new version): the attempt's partial load of the
     * old version cannot be told apart from the new one by (source, run id), so a restart is
     * refused with that reason and --rerun loads the new version cleanly.
     */
    @Test
    void aFileChangedDuringAFailedAttemptNeedsANewAttempt() throws Exception {
        PipelineSpec spec = readings();
        Path day = Files.createDirectories(home.resolve("landing/readings/dt=2001-07-01"));
        Files.writeString(day.resolve("r.csv"), "id,v\n1,10\n2,20\n3,30\n4,40\n5,50\n6,60\n");
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            PipelineRunner runner = new PipelineRunner(w, home);
            RunSummary failed;
            try (AutoCloseable secondChunkFails = bronzeChunkFails("bronze.readings_raw", 2)) {
                failed = runner.run(spec, DAY, RunOptions.plain());
            }
            assertThat(failed.failure()).isEqualTo("step bronze.readings_raw failed: IllegalStateException: chunk 2 of bronze.readings_raw fails");
            assertThat(failed.bronzeRows()).as("one chunk of two rows was committed").isEqualTo(2);

            Files.writeString(day.resolve("r.csv"), "id,v\n1,10\n2,20\n3,30\n4,40\n5,50\n6,61\n");
            RunSummary refused = runner.run(spec, DAY, RunOptions.plain());
            assertThat(refused.status().name()).isEqualTo("FAILED");
            assertThat(refused.failure()).contains("the file changed").contains("Start a new attempt with --rerun");

            RunSummary rerun = runner.run(spec, DAY, RunOptions.plain().withRerun(true));
            assertThat(rerun.status().name()).isEqualTo("COMPLETED");
            assertThat(rerun.bronzeRows()).isEqualTo(6);
            assertThat(rerun.silverRows()).isEqualTo(6);
            assertThat(w.dsl().resultQuery("SELECT total FROM gold.readings_total").fetchOne(0, Long.class)).isEqualTo(211L);
            assertThat(w.dsl().fetchCount(w.dsl().selectFrom("bronze.readings_raw")))
                    .as("Bronze keeps the failed attempt's partial rows").isEqualTo(2 + 6);
        }
    }

    /**
     * Two files in a partition's folder: {@code a.csv} loads whole (LOADED by attempt 0), then
     * {@code b.csv} fails the Bronze step. {@code a.csv} is then replaced by a new version: its
     * rows would carry the same (source, run id) as the loaded version's, so the restart is refused
     * naming the file, and --rerun loads both files cleanly.
     */
    @Test
    void aFileLoadedByAFailedAttemptAndThenChangedNeedsANewAttempt() throws Exception {
        PipelineSpec spec = readings();
        Path day = Files.createDirectories(home.resolve("landing/readings/dt=2001-07-01"));
        Files.writeString(day.resolve("a.csv"), "id,v\n1,10\n2,20\n");
        Files.writeString(day.resolve("b.csv"), "id,v\n3,30\n4,40\n5,50\n");
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            PipelineRunner runner = new PipelineRunner(w, home);
            RunSummary failed;
            try (AutoCloseable bFails = bronzeChunkFails("bronze.readings_raw", 2)) {
                failed = runner.run(spec, DAY, RunOptions.plain());
            }
            assertThat(failed.failure()).isEqualTo("step bronze.readings_raw failed: IllegalStateException: chunk 2 of bronze.readings_raw fails");
            assertThat(w.dsl().resultQuery("SELECT status FROM sluice.landed_file WHERE source LIKE '%a.csv'").fetchOne(0, String.class))
                    .isEqualTo("LOADED");

            Files.writeString(day.resolve("a.csv"), "id,v\n1,11\n2,22\n");
            Files.writeString(day.resolve("b.csv"), "id,v\n3,30\n4,40\n5,50\n");
            RunSummary refused = runner.run(spec, DAY, RunOptions.plain());
            assertThat(refused.status().name()).isEqualTo("FAILED");
            assertThat(refused.failure()).contains("a.csv").contains("after this attempt had loaded it")
                    .contains("Start a new attempt with --rerun");

            RunSummary rerun = runner.run(spec, DAY, RunOptions.plain().withRerun(true));
            assertThat(rerun.status().name()).isEqualTo("COMPLETED");
            assertThat(rerun.silverRows()).isEqualTo(5);
            assertThat(w.dsl().resultQuery("SELECT total FROM gold.readings_total").fetchOne(0, Long.class)).isEqualTo(11 + 22 + 30 + 40 + 50);
        }
    }

    /**
     * A landed file of another day filed under a partition (the 2001-03-04 file copied into
     * {@code dt=2001-03-03}): every row is valid, so no row rule and no not-null check sees it.
     * It used to complete and publish: Silver then held no 03-03 rows and 03-04 twice, and
     * Gold's per-airport mart two rows per (date, airport). The transform gate's
     * {@code flight_date_in_partition} (expect_column_values_to_be_in_partition) now blocks it,
     * naming the dates it found, and the published day stays as it was.
     */
    @Test
    void aFileOfAnotherDayFiledUnderThePartitionFailsTheTransformGate() throws Exception {
        Path sample = TestHome.withSampleData().resolve("landing");
        for (String d : java.util.List.of("2001-03-03", "2001-03-04")) {
            Path day = Files.createDirectories(home.resolve("landing/flights/dt=" + d));
            Files.copy(sample.resolve("flights/dt=" + d + "/flights.parquet"), day.resolve("flights.parquet"));
        }
        Files.createDirectories(home.resolve("landing/airports"));
        Files.copy(sample.resolve("airports/airports.csv"), home.resolve("landing/airports/airports.csv"));
        Partition third = Partition.parseDaily("2001-03-03");
        Partition fourth = Partition.parseDaily("2001-03-04");
        PipelineSpec spec = TestHome.load(home, TestHome.projectRoot().resolve("pipelines/flights.yaml"));
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            PipelineRunner runner = new PipelineRunner(w, home);
            assertThat(runner.run(spec, third, RunOptions.plain()).status().name()).isEqualTo("COMPLETED");
            assertThat(runner.run(spec, fourth, RunOptions.plain()).status().name()).isEqualTo("COMPLETED");
            String silverByDate = "SELECT flight_date, COUNT(*) FROM silver.flights GROUP BY flight_date ORDER BY flight_date";
            String before = w.dsl().resultQuery(silverByDate).fetch().format();
            String goldBefore = w.dsl().resultQuery("SELECT COUNT(*), SUM(flights) FROM gold.airport_daily_delays").fetch().format();
            String bronzeCount = "SELECT COUNT(*) FROM bronze.flights_raw WHERE _partition = ?";
            long raw3 = w.dsl().resultQuery(bronzeCount, "2001-03-03").fetchOne(0, Long.class);
            long raw4 = w.dsl().resultQuery(bronzeCount, "2001-03-04").fetchOne(0, Long.class);

            Files.copy(home.resolve("landing/flights/dt=2001-03-04/flights.parquet"),
                    home.resolve("landing/flights/dt=2001-03-03/flights.parquet"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            RunSummary rerun = runner.run(spec, third, RunOptions.plain().withRerun(true));

            assertThat(rerun.status().name()).isEqualTo("FAILED");
            assertThat(rerun.failure()).contains("silver.flights").contains("flight_date_in_partition")
                    .contains("flight_date all 2001-03-04T00:00, outside the partition's interval [2001-03-03T00:00, 2001-03-04T00:00)");
            assertThat(w.dsl().resultQuery(silverByDate).fetch().format()).as("the published days are untouched").isEqualTo(before);
            assertThat(w.dsl().resultQuery("SELECT COUNT(*) FROM silver.flights WHERE _partition = '2001-03-03' AND flight_date <> DATE '2001-03-03'")
                    .fetchOne(0, Long.class)).isZero();
            assertThat(w.dsl().resultQuery("SELECT COUNT(*), SUM(flights) FROM gold.airport_daily_delays").fetch().format()).isEqualTo(goldBefore);
            assertThat(w.dsl().resultQuery("SELECT COUNT(*) FROM (SELECT flight_date, origin FROM gold.airport_daily_delays"
                    + " GROUP BY flight_date, origin HAVING COUNT(*) > 1) d").fetchOne(0, Long.class)).as("one row per (date, airport)").isZero();
            assertThat(w.dsl().resultQuery(bronzeCount, "2001-03-03").fetchOne(0, Long.class))
                    .as("Bronze keeps both versions of the day's file").isEqualTo(raw3 + raw4);
        }
    }

    /**
     * The same wrong day's file on the lakehouse engine ({@code flights_lake.yaml}): the audit of
     * Silver's candidate version fails {@code flight_date_in_partition}, so the version is not
     * published (the engine keeps the published snapshot, LakehouseVersionsIT).
     */
    @Test
    void aFileOfAnotherDayFailsTheLakehouseTransformGateToo() throws Exception {
        Path sample = TestHome.withSampleData().resolve("landing");
        Path day = Files.createDirectories(home.resolve("landing/flights/dt=2001-03-03"));
        Files.copy(sample.resolve("flights/dt=2001-03-04/flights.parquet"), day.resolve("flights.parquet"));
        Files.createDirectories(home.resolve("landing/airports"));
        Files.copy(sample.resolve("airports/airports.csv"), home.resolve("landing/airports/airports.csv"));
        PipelineSpec spec = TestHome.load(home, TestHome.projectRoot().resolve("pipelines/flights_lake.yaml"));
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            RunSummary run = new PipelineRunner(w, home).run(spec, Partition.parseDaily("2001-03-03"), RunOptions.plain());
            assertThat(run.status().name()).isEqualTo("FAILED");
            assertThat(run.failure()).contains("silver.lake_flights").contains("flight_date_in_partition")
                    .contains("flight_date all 2001-03-04T00:00, outside the partition's interval [2001-03-03T00:00, 2001-03-04T00:00)");
            assertThat(w.dsl().resultQuery("SELECT COUNT(*) FROM sluice.published_partition WHERE dataset = 'silver.lake_flights'")
                    .fetchOne(0, Long.class)).as("no version of Silver published").isZero();
        }
    }
}
