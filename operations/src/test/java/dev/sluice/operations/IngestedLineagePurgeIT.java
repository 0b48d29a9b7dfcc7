package dev.sluice.operations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.config.WarehouseSpec;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import dev.sluice.lineage.LineageDataset;
import dev.sluice.lineage.LineageEmitter;
import dev.sluice.lineage.RunEventType;
import dev.sluice.lineage.store.LineageRepository;
import dev.sluice.operations.purge.IngestedLineagePurge;
import dev.sluice.warehouse.Warehouse;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code sluice purge --ingested-lineage} on H2 and a real PostgreSQL (embedded): the lineage
 * other tools posted, of runs older than the retention, goes whole (runs, events, edges, column
 * lineage); newer ingested runs and Sluice's own lineage stay, and the dataset graph keeps exactly
 * the edges some run still refers to.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class IngestedLineagePurgeIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static final Clock NOW = Clock.fixed(Instant.parse("2026-12-01T00:00:00Z"), ZoneOffset.UTC);
    private EmbeddedPostgres pg;

    @BeforeAll
    void startPostgres() throws Exception {
        pg = EmbeddedPostgres.builder().start();
    }

    @AfterAll
    void stopPostgres() throws Exception {
        pg.close();
    }

    Stream<String> databases() {
        return Stream.of("h2", "postgresql");
    }

    private Warehouse open(String database) throws Exception {
        if (database.equals("h2")) {
            return Warehouse.open(new WarehouseSpec("jdbc:h2:mem:ingested-purge" + DATABASES.incrementAndGet() + ";DB_CLOSE_DELAY=-1", "sa", ""));
        }
        String name = "ingested_purge" + DATABASES.incrementAndGet();
        try (Connection c = pg.getPostgresDatabase().getConnection()) {
            c.createStatement().execute("CREATE DATABASE " + name);
        }
        return Warehouse.open(new WarehouseSpec(pg.getJdbcUrl("postgres", name), "postgres", ""));
    }

    private static String event(String runId, String type, String time, String job, String input, String output, boolean columns) {
        String facets = !columns ? "" : """
                "columnLineage": {"_producer": "https://example.org/etl",
                  "_schemaURL": "https://openlineage.io/spec/facets/1-2-0/ColumnLineageDatasetFacet.json#/$defs/ColumnLineageDatasetFacet",
                  "fields": {"id": {"inputFields": [{"namespace": "postgres://dwh:5432", "name": "%s", "field": "id"}]}}}""".formatted(input);
        return """
                {"eventTime": "%s", "eventType": "%s", "producer": "https://example.org/etl",
                 "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
                 "run": {"runId": "%s", "facets": {}},
                 "job": {"namespace": "etl", "name": "%s"},
                 "inputs": [{"namespace": "postgres://dwh:5432", "name": "%s", "facets": {}}],
                 "outputs": [{"namespace": "postgres://dwh:5432", "name": "%s", "facets": {%s}}]}
                """.formatted(time, type, runId, job, input, output, facets);
    }

    /** A run of another tool: START at {@code start}, then {@code end} (COMPLETE or FAIL) an hour later. */
    private static void run(LineageRepository repo, String start, String end, String job, String input, String output) throws Exception {
        String id = UUID.randomUUID().toString();
        String endTime = Instant.parse(start).plus(Duration.ofHours(1)).toString();
        for (String json : List.of(event(id, "START", start, job, input, output, false), event(id, end, endTime, job, input, output, true))) {
            assertThat(repo.storeForeign(JSON.readTree(json), json)).isTrue();
        }
    }

    private static long count(Warehouse w, String table) {
        return w.dsl().resultQuery("SELECT COUNT(*) FROM sluice." + table).fetchOne(0, Long.class);
    }

    private static Map<String, Long> counts(Warehouse w) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (String t : List.of("lineage_run", "lineage_run_dataset", "lineage_event", "lineage_edge", "lineage_column", "lineage_graph")) {
            out.put(t, count(w, t));
        }
        return out;
    }

    @ParameterizedTest
    @MethodSource("databases")
    void ingestedRunsOlderThanTheRetentionGoWholeAndTheGraphKeepsWhatIsStillReferred(String database) throws Exception {
        try (Warehouse w = open(database)) {
            LineageRepository repo = new LineageRepository(w.dsl());
            // older than a year before NOW: three loads, one failed load, one export (whose graph edge no other run shares)
            run(repo, "2025-01-01T02:00:00Z", "COMPLETE", "load_orders", "public.orders", "raw.orders");
            run(repo, "2025-01-02T02:00:00Z", "COMPLETE", "load_orders", "public.orders", "raw.orders");
            run(repo, "2025-01-03T02:00:00Z", "COMPLETE", "load_orders", "public.orders", "raw.orders");
            run(repo, "2025-01-04T02:00:00Z", "FAIL", "load_orders", "public.orders", "raw.orders");
            run(repo, "2025-01-05T02:00:00Z", "COMPLETE", "export_orders", "raw.orders", "export.orders");
            // within the year: one load
            run(repo, "2026-11-30T02:00:00Z", "COMPLETE", "load_orders", "public.orders", "raw.orders");
            // Sluice's own step run of 2001, which this purge never touches
            RunId step = RunId.newId();
            LineageDataset landing = new LineageDataset("file", "landing/flights", List.of(), null, "2001-01-01", null, null);
            LineageDataset bronze = new LineageDataset("h2", "bronze.flights_raw", List.of(), "flight_date", "2001-01-01", "1", 100L);
            repo.store(new LineageEmitter.RunEvent(RunEventType.COMPLETE, step, LineageEmitter.RunKind.STEP, "flights.bronze.flights_raw",
                    null, null, new Partition("2001-01-01"), null, null, Instant.parse("2001-01-02T00:00:00Z"), List.of(landing), List.of(bronze),
                    null, "hash", null, step), "{}");

            assertThat(counts(w)).containsExactly(Map.entry("lineage_run", 6L), Map.entry("lineage_run_dataset", 12L),
                    Map.entry("lineage_event", 13L), Map.entry("lineage_edge", 6L), Map.entry("lineage_column", 5L),
                    Map.entry("lineage_graph", 3L));
            assertThat(repo.downstream("raw.orders", 3)).extracting(LineageRepository.Edge::to).containsExactly("export.orders");

            IngestedLineagePurge purge = new IngestedLineagePurge(w, NOW);
            IngestedLineagePurge.Report dry = purge.run(Duration.ofDays(365), true);
            assertThat(dry.cutoff()).isEqualTo(Instant.parse("2025-12-01T00:00:00Z").atOffset(ZoneOffset.UTC));
            assertThat(dry.removed()).containsExactly(Map.entry("ingested runs", 5L), Map.entry("ingested events", 10L),
                    Map.entry("ingested edges", 4L), Map.entry("ingested column lineage", 4L), Map.entry("lineage graph edges", 1L));
            assertThat(counts(w)).as("a dry run removes nothing").containsEntry("lineage_event", 13L).containsEntry("lineage_graph", 3L);

            IngestedLineagePurge.Report done = purge.run(Duration.ofDays(365), false);
            assertThat(done.removed()).isEqualTo(dry.removed());
            assertThat(counts(w)).containsExactly(Map.entry("lineage_run", 1L), Map.entry("lineage_run_dataset", 2L),
                    Map.entry("lineage_event", 3L), Map.entry("lineage_edge", 2L), Map.entry("lineage_column", 1L),
                    Map.entry("lineage_graph", 2L));
            assertThat(repo.downstream("raw.orders", 3)).as("the export's edge went with its only run").isEmpty();
            assertThat(repo.upstream("raw.orders", 3)).containsExactly(new LineageRepository.Edge("public.orders", "raw.orders", "load_orders"));
            assertThat(repo.upstream("bronze.flights_raw", 3)).containsExactly(new LineageRepository.Edge("landing/flights", "bronze.flights_raw",
                    "flights"));
            assertThat(repo.known("export.orders")).isFalse();
            assertThat(w.dsl().resultQuery("SELECT first_seen FROM sluice.lineage_graph WHERE output_name = 'raw.orders'")
                    .fetchOne(0, java.time.OffsetDateTime.class).toInstant())
                    .as("first seen again from the edges left").isEqualTo(Instant.parse("2026-11-30T03:00:00Z"));

            assertThat(purge.run(Duration.ofDays(365), false).removed().values()).as("a second purge finds nothing").containsOnly(0L);
            assertThatThrownBy(() -> purge.run(Duration.ofDays(-1), false)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("--older-than is negative");
        }
    }
}
