package dev.sluice.batch.lakehouse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.batch.job.RunRefusedException;
import dev.sluice.batch.job.RunSummary;
import dev.sluice.batch.testkit.DuckDbReference;
import dev.sluice.batch.testkit.LakehouseGold;
import dev.sluice.batch.testkit.TableChecksum;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.EngineKind;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.Partition;
import dev.sluice.spark.LakehouseCatalog;
import dev.sluice.spark.SparkSessions;
import dev.sluice.warehouse.Warehouse;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.jooq.Record;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The shipped lakehouse flights spec ({@code pipelines/flights_lake.yaml}, {@code engine:
 * lakehouse}) on real data against one warehouse database holding the Iceberg catalog: five dates
 * through Bronze, Silver and Gold as Iceberg tables; every Gold row equals DuckDB computing the
 * rules from the original file; Bronze/Silver/duplicate/quarantine counts as on the warehouse
 * engine; a rerun leaves identical layers. Subclasses name the database.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class FlightsLoadLakehouseContract {

    /** 2001-02-09: 5 exact duplicate pairs; 2001-02-22: one delay of −953 min (quarantined); 2001-07-01: 6 rows. */
    static final LocalDate DUPLICATES = LocalDate.parse("2001-02-09");
    static final LocalDate QUARANTINE = LocalDate.parse("2001-02-22");
    static final LocalDate LAST = LocalDate.parse("2001-07-01");
    static final List<LocalDate> DATES = List.of(LocalDate.parse("2001-01-15"), DUPLICATES, QUARANTINE,
            LocalDate.parse("2001-03-31"), LAST);

    PipelineSpec spec;
    Warehouse warehouse;
    PipelineRunner runner;
    SparkSession spark;
    final Map<LocalDate, RunSummary> first = new LinkedHashMap<>();

    abstract String url();

    abstract String user();

    abstract String password();

    @BeforeAll
    void loadDates() {
        Path lake = TestHome.projectRoot().resolve("target/it-lakehouses/lake-" + java.util.UUID.randomUUID()).toAbsolutePath();
        spec = TestHome.projectSpec("flights_lake", url(), user(), password(), Map.of("SLUICE_LAKEHOUSE", lake.toString(),
                "SLUICE_BATCH_ROWS", "5000"));
        assertThat(spec.engine().kind()).isEqualTo(EngineKind.LAKEHOUSE);
        assertThat(spec.engine().location()).isEqualTo(lake.toString());
        warehouse = Warehouse.open(spec.warehouse());
        runner = new PipelineRunner(warehouse, TestHome.withSampleData());
        for (LocalDate d : DATES) {
            RunSummary s = runner.run(spec, Partition.daily(d), RunOptions.plain());
            assertThat(s.failure()).as("run of %s", d).isNull();
            first.put(d, s);
        }
        spark = SparkSessions.lakehouse(spec.sparkMaster(), new LakehouseCatalog(url(), user(), password(), lake.toString()));
    }

    @AfterAll
    void close() {
        if (warehouse != null) {
            warehouse.close();
        }
    }

    @Test
    void goldMatchesDuckDbOnTheOriginalFile() throws Exception {
        for (LocalDate d : DATES) {
            LakehouseGold.assertMatchesDuckDb(spark, d);
        }
    }

    @Test
    void theMonthlyRollupSumsThePublishedDaysOfItsMonth() {
        Row feb = spark.sql("SELECT SUM(flights), COUNT(*) FROM gold.lake_airport_monthly_delays WHERE flight_month = '2001-02'").first();
        Row days = spark.sql("SELECT SUM(flights), COUNT(DISTINCT origin) FROM gold.lake_airport_daily_delays"
                + " WHERE flight_date BETWEEN DATE '2001-02-01' AND DATE '2001-02-28'").first();
        assertThat(feb.getLong(0)).isEqualTo(days.getLong(0))
                .isEqualTo(first.get(DUPLICATES).silverRows() + first.get(QUARANTINE).silverRows());
        assertThat(feb.getLong(1)).isEqualTo(days.getLong(1));
    }

    @Test
    void summaryAccountsForEveryRow() throws Exception {
        for (LocalDate d : DATES) {
            RunSummary s = first.get(d);
            long raw = DuckDbReference.rawRows(TestHome.originalFlights(), d);
            assertThat(s.status().name()).isEqualTo("COMPLETED");
            assertThat(s.bronzeRows()).as("Bronze rows on %s", d).isEqualTo(raw);
            assertThat(spark.sql("SELECT COUNT(*) FROM bronze.lake_flights_raw WHERE _sluice_partition = '" + d + "'").first().getLong(0))
                    .as("Iceberg Bronze rows on %s", d).isEqualTo(raw);
            assertThat(spark.sql("SELECT COUNT(*) FROM silver.lake_flights WHERE _sluice_partition = '" + d + "'").first().getLong(0))
                    .as("Iceberg Silver rows on %s", d).isEqualTo(s.silverRows());
            assertThat(s.silverRows() + s.duplicatesCollapsed() + s.quarantined()).isEqualTo(s.bronzeRows());
            long quarantineRows = warehouse.dsl().fetchCount(warehouse.dsl().selectFrom("sluice.quarantine")
                    .where("partition_key = ?", d.toString()));
            assertThat(quarantineRows).isEqualTo(s.quarantined());
        }
        assertThat(first.get(LAST).bronzeRows()).isEqualTo(6);
        assertThat(first.get(DUPLICATES).duplicatesCollapsed()).isEqualTo(5);
        assertThat(first.get(DUPLICATES).quarantined()).isZero();
        assertThat(first.get(QUARANTINE).quarantined()).isEqualTo(1);
        Record q = warehouse.dsl().resultQuery("SELECT rule_id, source, source_pos, record_json, status"
                + " FROM sluice.quarantine WHERE partition_key = ?", QUARANTINE.toString()).fetchOne();
        assertThat(q.get(0, String.class)).isEqualTo("delay_out_of_range");
        assertThat(q.get(1, String.class)).isEqualTo("landing/flights/dt=2001-02-22/flights.parquet");
        var raw = new com.fasterxml.jackson.databind.ObjectMapper().readTree(q.get(3, String.class));
        assertThat(raw.get("delay").asLong()).isEqualTo(-953);
        assertThat(raw.get("origin").asText()).isEqualTo("EWR");
        assertThat(raw.get("destination").asText()).isEqualTo("MCO");
        assertThat(raw.get("date").asText()).startsWith("2001-02-22");
        assertThat(q.get(4, String.class)).isEqualTo("OPEN");
    }

    /**
     * A day of 16,565 rows loads in four chunks of 5,000, each a data file and an append commit;
     * once the partition is loaded its files are rewritten into one and the chunks' snapshots
     * expire. The current snapshot is the last load's last chunk: it names its run and position.
     */
    @Test
    void aLoadedBronzePartitionIsOneDataFileAndTheChunksCommitsExpire() {
        assertThat(first.get(QUARANTINE).bronzeRows()).isGreaterThan(3 * spec.batchRows());
        for (LocalDate d : DATES) {
            assertThat(spark.sql("SELECT file_count, record_count FROM bronze.lake_flights_raw.partitions"
                    + " WHERE partition._sluice_partition = '" + d + "'").collectAsList())
                    .as("Bronze files of %s", d).extracting(r -> r.getInt(0) + " " + r.getLong(1))
                    .containsExactly("1 " + first.get(d).bronzeRows());
        }
        List<Row> snapshots = spark.sql("SELECT summary['sluice.run_id'], summary['sluice.source'], summary['sluice.source_pos']"
                + " FROM bronze.lake_flights_raw.snapshots").collectAsList();
        assertThat(snapshots).hasSize(1);
        assertThat(snapshots.get(0).getString(0)).isEqualTo(first.get(LAST).runId().toString());
        assertThat(snapshots.get(0).getString(1)).isEqualTo("landing/flights/dt=2001-07-01/flights.parquet");
        assertThat(snapshots.get(0).getString(2)).isEqualTo("5");
    }

    @Test
    void completedPartitionIsRefusedAndRerunLeavesIdenticalLayers() {
        Partition p = Partition.daily(DUPLICATES);
        assertThatThrownBy(() -> runner.run(spec, p, RunOptions.plain()))
                .isInstanceOf(RunRefusedException.class)
                .hasMessageContaining("already COMPLETED").hasMessageContaining("--rerun");
        Map<String, String> before = checksums(p);
        long bronzeBefore = spark.sql("SELECT COUNT(*) FROM bronze.lake_flights_raw").first().getLong(0);
        RunSummary rerun = runner.run(spec, p, RunOptions.plain().withRerun(true));
        assertThat(rerun.status().name()).isEqualTo("COMPLETED");
        assertThat(rerun.attempt()).isEqualTo(first.get(p.date()).attempt() + 1);
        assertThat(rerun.rowsRead()).as("an unchanged file adds no Bronze rows").isZero();
        assertThat(spark.sql("SELECT COUNT(*) FROM bronze.lake_flights_raw").first().getLong(0)).isEqualTo(bronzeBefore);
        assertThat(checksums(p)).isEqualTo(before);
        assertThat(rerun.silverRows()).isEqualTo(first.get(p.date()).silverRows());
    }

    @Test
    void sluiceSqlReadsTheIcebergTablesAndRefusesWrites() {
        var r = dev.sluice.engine.lakehouse.LakehouseSql.query(spec, warehouse,
                "SELECT origin, flights, CAST(flights AS DOUBLE PRECISION) / 2 AS half FROM gold.lake_airport_daily_delays"
                        + " WHERE flight_date = DATE '2001-07-01' ORDER BY origin", 2);
        List<Row> all = spark.sql("SELECT origin, flights FROM gold.lake_airport_daily_delays WHERE flight_date = DATE '2001-07-01'"
                + " ORDER BY origin").collectAsList();
        assertThat(r.columns()).containsExactly("origin", "flights", "half");
        assertThat(r.total()).isEqualTo(all.size()).isGreaterThan(2);
        assertThat(r.rows()).hasSize(2);
        assertThat(r.rows().get(0)).containsExactly(all.get(0).getString(0), all.get(0).getLong(1), all.get(0).getLong(1) / 2.0);
        assertThatThrownBy(() -> dev.sluice.engine.lakehouse.LakehouseSql.query(spec, warehouse, "DELETE FROM gold.lake_route_daily", 10))
                .isInstanceOf(dev.sluice.core.BadInputException.class).hasMessageContaining("never writes");
        long routes = spark.sql("SELECT COUNT(*) FROM gold.lake_route_daily").first().getLong(0);
        assertThatThrownBy(() -> dev.sluice.engine.lakehouse.LakehouseSql.query(spec, warehouse,
                "WITH x AS (SELECT 1) INSERT INTO gold.lake_route_daily SELECT * FROM gold.lake_route_daily", 10))
                .isInstanceOf(dev.sluice.core.BadInputException.class).hasMessageContaining("never writes");
        assertThat(spark.sql("SELECT COUNT(*) FROM gold.lake_route_daily").first().getLong(0)).isEqualTo(routes);
        assertThatThrownBy(() -> dev.sluice.engine.lakehouse.LakehouseSql.query(spec, warehouse,
                "SELECT `reflect`('java.lang.System', 'getenv', 'SLUICE_PII_KEY_V1')", 10))
                .isInstanceOf(dev.sluice.core.BadInputException.class).hasMessageContaining("refuses Spark's reflect()");
        assertThatThrownBy(() -> dev.sluice.engine.lakehouse.LakehouseSql.query(spec, warehouse, "SELECT * FROM (", 10))
                .isInstanceOf(dev.sluice.core.BadInputException.class).hasMessageContaining("Spark SQL cannot parse the query");
        assertThatThrownBy(() -> dev.sluice.engine.lakehouse.LakehouseSql.query(spec, warehouse, "SELECT no_such FROM gold.lake_route_daily", 10))
                .isInstanceOf(dev.sluice.core.SluiceException.class).hasMessageStartingWith("the query failed: ")
                .hasMessageContaining("no_such");
        assertThat(spark.sql("SELECT COUNT(*) FROM gold.lake_route_daily").first().getLong(0)).isPositive();
    }

    @Test
    void aDatasetBelongsToOnePipeline() {
        PipelineSpec copy = dev.sluice.batch.testkit.TestHome.renamed(spec, "flights_lake_copy");
        assertThatThrownBy(() -> dev.sluice.engine.LayerEngines.on(warehouse).forPipeline(copy).createTables())
                .isInstanceOf(dev.sluice.core.SluiceException.class)
                .hasMessageContaining("is already built by pipeline flights_lake in this warehouse");
    }

    /**
     * Lineage names a lakehouse table as the OpenLineage naming spec names files (namespace
     * {@code file}, name the table's location), with its catalog table in a {@code symlinks} facet
     * and the Iceberg snapshot id as the dataset version: reading the table at that version gives
     * the partition's rows. The store and its queries know the table by its catalog name, and
     * another tool's event naming it by location lands on the same dataset.
     */
    @Test
    void lineageNamesIcebergTablesByLocationWithTheSnapshotAsVersion() throws Exception {
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        var dsl = warehouse.dsl();
        String runOfLast = first.get(LAST).runId().toString();
        List<com.fasterxml.jackson.databind.JsonNode> events = new java.util.ArrayList<>();
        for (String e : dsl.resultQuery("SELECT event_json FROM sluice.lineage_event WHERE partition_key = ? ORDER BY event_id",
                LAST.toString()).fetch(0, String.class)) {
            events.add(json.readTree(e));
        }
        var silver = events.stream().filter(e -> e.path("job").path("name").asText().equals("flights_lake.silver.lake_flights")
                && e.path("eventType").asText().equals("COMPLETE")
                && e.path("run").path("facets").path("sluice_run").path("attemptRunId").asText().equals(runOfLast))
                .findFirst().orElseThrow();
        String lake = spec.engine().location();
        var out = silver.path("outputs").get(0);
        assertThat(out.path("namespace").asText()).isEqualTo("file");
        assertThat(out.path("name").asText()).isEqualTo(lake + "/silver/lake_flights");
        var symlink = out.path("facets").path("symlinks").path("identifiers").get(0);
        assertThat(symlink.path("name").asText()).isEqualTo("silver.lake_flights");
        assertThat(symlink.path("type").asText()).isEqualTo("TABLE");
        assertThat(symlink.path("namespace").asText()).startsWith(url().startsWith("jdbc:h2:") ? "h2:" : "postgres://");
        assertThat(out.path("facets").path("storage").path("storageLayer").asText()).isEqualTo("iceberg");
        assertThat(out.path("facets").path("storage").path("fileFormat").asText()).isEqualTo("parquet");
        assertThat(out.path("facets").path("partitioning").path("columns").get(0).path("columnName").asText()).isEqualTo("_sluice_partition");
        long version = Long.parseLong(out.path("facets").path("version").path("datasetVersion").asText());
        assertThat(spark.sql("SELECT COUNT(*) FROM silver.lake_flights VERSION AS OF " + version
                + " WHERE _sluice_partition = '" + LAST + "'").first().getLong(0)).isEqualTo(first.get(LAST).silverRows());
        var in = silver.path("inputs").get(0);
        assertThat(in.path("namespace").asText() + ":" + in.path("name").asText()).isEqualTo("file:" + lake + "/bronze/lake_flights_raw");
        assertThat(in.path("facets").path("symlinks").path("identifiers").get(0).path("name").asText()).isEqualTo("bronze.lake_flights_raw");
        List<Long> bronzeSnapshots = spark.sql("SELECT snapshot_id FROM bronze.lake_flights_raw.snapshots")
                .as(org.apache.spark.sql.Encoders.LONG()).collectAsList();
        assertThat(bronzeSnapshots).containsExactly(Long.parseLong(in.path("facets").path("version").path("datasetVersion").asText()));
        var delay = out.path("facets").path("columnLineage").path("fields").path("delay_min").path("inputFields").get(0);
        assertThat(delay.path("namespace").asText() + ":" + delay.path("name").asText() + "." + delay.path("field").asText())
                .isEqualTo("file:" + lake + "/bronze/lake_flights_raw.delay");
        var validator = new dev.sluice.lineage.EventValidator();
        assertThat(events).hasSizeGreaterThan(10)
                .allSatisfy(e -> assertThat(validator.violations(e)).as(e.path("job").path("name").asText()).isEmpty());

        var repo = new dev.sluice.lineage.store.LineageRepository(dsl);
        assertThat(repo.upstream("gold.lake_airport_daily_delays", 10)).extracting(e -> e.from() + " -> " + e.to())
                .contains("silver.lake_flights -> gold.lake_airport_daily_delays", "bronze.lake_flights_raw -> silver.lake_flights",
                        "landing/flights -> bronze.lake_flights_raw");
        var runs = repo.runs("silver.lake_flights", LAST.toString());
        assertThat(runs).isNotEmpty();
        assertThat(runs.get(runs.size() - 1).get("output_version", String.class)).isEqualTo(Long.toString(version));
        assertThat(repo.columnOrigins("silver.lake_flights", "delay_min")).extracting(e -> e.from() + " -> " + e.to())
                .contains("bronze.lake_flights_raw.delay -> silver.lake_flights.delay_min");
        // another Spark job, reporting with OpenLineage's Spark integration, reads the table by its location (spelled loosely)
        String foreign = """
                {"eventType": "COMPLETE", "eventTime": "2026-12-02T10:00:00Z",
                 "run": {"runId": "%s"}, "job": {"namespace": "spark", "name": "delay_report.execute_insert"},
                 "inputs": [{"namespace": "file://", "name": "%s/./silver/lake_flights/"}],
                 "outputs": [{"namespace": "s3://reports", "name": "delays/2001"}]}
                """.formatted(java.util.UUID.randomUUID(), lake);
        repo.storeForeign(json.readTree(foreign), foreign);
        assertThat(repo.downstream("silver.lake_flights", 1)).extracting(e -> e.from() + " -> " + e.to())
                .contains("silver.lake_flights -> delays/2001");
    }

    /** Per table: the partition's rows (declared columns) hashed in a fixed order. */
    private Map<String, String> checksums(Partition p) {
        Map<String, String> sums = new LinkedHashMap<>();
        for (String t : List.of("silver.lake_flights", "gold.lake_airport_daily_delays", "gold.lake_route_daily")) {
            sums.put(t, TableChecksum.of(spark, spec.table(dev.sluice.core.DatasetRef.parse(t)).orElseThrow(),
                    "_sluice_partition = '" + p.key() + "'"));
        }
        return sums;
    }
}
