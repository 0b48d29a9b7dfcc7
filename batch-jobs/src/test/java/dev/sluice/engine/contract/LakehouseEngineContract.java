package dev.sluice.engine.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.batch.job.RunSummary;
import dev.sluice.batch.testkit.DuckDbReference;
import dev.sluice.batch.testkit.TableChecksum;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.EngineKind;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.BadInputException;
import dev.sluice.core.Partition;
import dev.sluice.core.SluiceException;
import dev.sluice.engine.lakehouse.LakehouseSql;
import dev.sluice.spark.LakehouseCatalog;
import dev.sluice.spark.SparkSessions;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * The engine contract on the lakehouse engine: the shipped {@code pipelines/flights_lake.yaml}
 * ({@code engine: lakehouse}, its datasets named {@code lake_*}, Bronze loaded in chunks of 5,000
 * rows), Iceberg tables in a fresh lakehouse directory with their catalog in the warehouse
 * database, read through Spark SQL; five dates. Its own cases: the Iceberg Bronze and Silver
 * partitions hold the summary's rows, a loaded Bronze partition is one data file, {@code sluice
 * sql} reads and never writes, lineage names the tables by location. Subclasses name the
 * warehouse database.
 */
public abstract class LakehouseEngineContract extends EngineContract {

    protected LakehouseEngineContract(KitDatabase database) {
        super(database);
    }

    private Path lake;
    private SparkSession spark;

    @Override
    protected PipelineSpec engineSpec(String url, String user, String password) {
        lake = TestHome.projectRoot().resolve("target/it-lakehouses/lake-" + UUID.randomUUID()).toAbsolutePath();
        PipelineSpec s = TestHome.projectSpec("flights_lake", url, user, password, Map.of("SLUICE_LAKEHOUSE", lake.toString(),
                "SLUICE_BATCH_ROWS", "5000"));
        assertThat(s.engine().location()).isEqualTo(lake.toString());
        return s;
    }

    @Override
    protected EngineKind engineKind() {
        return EngineKind.LAKEHOUSE;
    }

    @Override
    protected List<LocalDate> dates() {
        return List.of(LocalDate.parse("2001-01-15"), DUPLICATES, QUARANTINE, LocalDate.parse("2001-03-31"), LAST);
    }

    @Override
    protected String table(String flightsTable) {
        return flightsTable.replace(".", ".lake_");
    }

    @Override
    protected List<List<Object>> rows(String sql) {
        List<List<Object>> out = new ArrayList<>();
        for (Row r : spark().sql(sql).collectAsList()) {
            List<Object> values = new ArrayList<>();
            for (int i = 0; i < r.length(); i++) {
                values.add(r.get(i));
            }
            out.add(values);
        }
        return out;
    }

    @Override
    protected String checksum(TableSpec table, Partition p) {
        return TableChecksum.of(spark(), table, "_sluice_partition = '" + p.key() + "'");
    }

    /** The JVM's Spark session on this test's lakehouse catalog; opened at first use, after the loads. */
    protected SparkSession spark() {
        if (spark == null) {
            spark = SparkSessions.lakehouse(spec.sparkMaster(), new LakehouseCatalog(url(), user(), password(), lake.toString()));
        }
        return spark;
    }

    @Test
    public void theIcebergBronzeAndSilverPartitionsHoldTheSummarysRows() throws Exception {
        for (LocalDate d : dates()) {
            RunSummary s = first.get(d);
            long raw = DuckDbReference.rawRows(TestHome.originalFlights(), d);
            assertThat(spark().sql("SELECT COUNT(*) FROM bronze.lake_flights_raw WHERE _sluice_partition = '" + d + "'").first().getLong(0))
                    .as("Iceberg Bronze rows on %s", d).isEqualTo(raw);
            assertThat(spark().sql("SELECT COUNT(*) FROM silver.lake_flights WHERE _sluice_partition = '" + d + "'").first().getLong(0))
                    .as("Iceberg Silver rows on %s", d).isEqualTo(s.silverRows());
        }
    }

    /**
     * A day of 16,565 rows loads in four chunks of 5,000, each a data file and an append commit;
     * once the partition is loaded its files are rewritten into one and the chunks' snapshots
     * expire. The current snapshot is the last load's last chunk: it names its run and position.
     */
    @Test
    public void aLoadedBronzePartitionIsOneDataFileAndTheChunksCommitsExpire() {
        assertThat(first.get(QUARANTINE).bronzeRows()).isGreaterThan(3 * spec.batchRows());
        for (LocalDate d : dates()) {
            assertThat(spark().sql("SELECT file_count, record_count FROM bronze.lake_flights_raw.partitions"
                    + " WHERE partition._sluice_partition = '" + d + "'").collectAsList())
                    .as("Bronze files of %s", d).extracting(r -> r.getInt(0) + " " + r.getLong(1))
                    .containsExactly("1 " + first.get(d).bronzeRows());
        }
        List<Row> snapshots = spark().sql("SELECT summary['sluice.run_id'], summary['sluice.source'], summary['sluice.source_pos']"
                + " FROM bronze.lake_flights_raw.snapshots").collectAsList();
        assertThat(snapshots).hasSize(1);
        assertThat(snapshots.get(0).getString(0)).isEqualTo(first.get(LAST).runId().toString());
        assertThat(snapshots.get(0).getString(1)).isEqualTo("landing/flights/dt=2001-07-01/flights.parquet");
        assertThat(snapshots.get(0).getString(2)).isEqualTo("5");
    }


    @Test
    public void sluiceSqlReadsTheIcebergTablesAndRefusesWrites() {
        var r = LakehouseSql.query(spec, warehouse,
                "SELECT origin, flights, CAST(flights AS DOUBLE PRECISION) / 2 AS half FROM gold.lake_airport_daily_delays"
                        + " WHERE flight_date = DATE '2001-07-01' ORDER BY origin", 2);
        List<Row> all = spark().sql("SELECT origin, flights FROM gold.lake_airport_daily_delays WHERE flight_date = DATE '2001-07-01'"
                + " ORDER BY origin").collectAsList();
        assertThat(r.columns()).containsExactly("origin", "flights", "half");
        assertThat(r.total()).isEqualTo(all.size()).isGreaterThan(2);
        assertThat(r.rows()).hasSize(2);
        assertThat(r.rows().get(0)).containsExactly(all.get(0).getString(0), all.get(0).getLong(1), all.get(0).getLong(1) / 2.0);
        assertThatThrownBy(() -> LakehouseSql.query(spec, warehouse, "DELETE FROM gold.lake_route_daily", 10))
                .isInstanceOf(BadInputException.class).hasMessageContaining("never writes");
        long routes = spark().sql("SELECT COUNT(*) FROM gold.lake_route_daily").first().getLong(0);
        assertThatThrownBy(() -> LakehouseSql.query(spec, warehouse,
                "WITH x AS (SELECT 1) INSERT INTO gold.lake_route_daily SELECT * FROM gold.lake_route_daily", 10))
                .isInstanceOf(BadInputException.class).hasMessageContaining("never writes");
        assertThat(spark().sql("SELECT COUNT(*) FROM gold.lake_route_daily").first().getLong(0)).isEqualTo(routes);
        assertThatThrownBy(() -> LakehouseSql.query(spec, warehouse,
                "SELECT `reflect`('java.lang.System', 'getenv', 'SLUICE_PII_KEY_V1')", 10))
                .isInstanceOf(BadInputException.class).hasMessageContaining("refuses Spark's reflect()");
        assertThatThrownBy(() -> LakehouseSql.query(spec, warehouse, "SELECT * FROM (", 10))
                .isInstanceOf(BadInputException.class).hasMessageContaining("Spark SQL cannot parse the query");
        assertThatThrownBy(() -> LakehouseSql.query(spec, warehouse, "SELECT no_such FROM gold.lake_route_daily", 10))
                .isInstanceOf(SluiceException.class).hasMessageStartingWith("the query failed: ")
                .hasMessageContaining("no_such");
        // a table in no catalog: Iceberg's JDBC catalog answered Spark's view lookup with a hint about its schema version
        assertThatThrownBy(() -> LakehouseSql.query(spec, warehouse, "SELECT * FROM gold.no_such_table", 10))
                .isInstanceOf(SluiceException.class)
                .hasMessageStartingWith("the query failed: a table the query names is not in the lakehouse catalog")
                .hasMessageNotContaining("schema-version");
        assertThat(spark().sql("SELECT COUNT(*) FROM gold.lake_route_daily").first().getLong(0)).isPositive();
    }



    /**
     * Lineage names a lakehouse table as the OpenLineage naming spec names files (namespace
     * {@code file}, name the table's location), with its catalog table in a {@code symlinks} facet
     * and the Iceberg snapshot id as the dataset version: reading the table at that version gives
     * the partition's rows. The store and its queries know the table by its catalog name, and
     * another tool's event naming it by location lands on the same dataset.
     */
    @Test
    public void lineageNamesIcebergTablesByLocationWithTheSnapshotAsVersion() throws Exception {
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
        assertThat(spark().sql("SELECT COUNT(*) FROM silver.lake_flights VERSION AS OF " + version
                + " WHERE _sluice_partition = '" + LAST + "'").first().getLong(0)).isEqualTo(first.get(LAST).silverRows());
        var in = silver.path("inputs").get(0);
        assertThat(in.path("namespace").asText() + ":" + in.path("name").asText()).isEqualTo("file:" + lake + "/bronze/lake_flights_raw");
        assertThat(in.path("facets").path("symlinks").path("identifiers").get(0).path("name").asText()).isEqualTo("bronze.lake_flights_raw");
        List<Long> bronzeSnapshots = spark().sql("SELECT snapshot_id FROM bronze.lake_flights_raw.snapshots")
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
}
