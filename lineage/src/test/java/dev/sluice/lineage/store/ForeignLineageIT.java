package dev.sluice.lineage.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.config.WarehouseSpec;
import dev.sluice.warehouse.Warehouse;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationVersion;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Events of other tools in the lineage store, on H2 and on a real PostgreSQL (embedded): an event
 * posted twice is stored once (a changed body under the same key is a new event); a run of another
 * tool is a run (state, parent, nominal time, error message, facets); its column lineage is
 * stored with its transformations; a cycle of two jobs or a self-edge is walked once; other
 * tools' job names stay whole; and static lineage (DatasetEvent, JobEvent) is stored with its facets.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ForeignLineageIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static final String PRODUCER = "\"_producer\": \"https://example.org/etl\"";
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

    /** A fresh warehouse (migrated) on the named database, handed to {@code test}. */
    private void on(String database, Consumer<Warehouse> test) throws Exception {
        try (Warehouse w = Warehouse.open(new WarehouseSpec(freshUrl(database), user(database), ""))) {
            test.accept(w);
        }
    }

    /** The JDBC URL of a new, empty database of the named kind. */
    private String freshUrl(String database) throws Exception {
        if (database.equals("h2")) {
            return "jdbc:h2:mem:foreign" + DATABASES.incrementAndGet() + ";DB_CLOSE_DELAY=-1";
        }
        String name = "foreign" + DATABASES.incrementAndGet();
        try (Connection c = pg.getPostgresDatabase().getConnection()) {
            c.createStatement().execute("CREATE DATABASE " + name);
        }
        return pg.getJdbcUrl("postgres", name);
    }

    private static String user(String database) {
        return database.equals("h2") ? "sa" : "postgres";
    }

    private static String event(String runId, String type, String time, String job, String runFacets, String inputs, String outputs) {
        return """
                {"eventTime": "%s", "eventType": "%s", "producer": "https://example.org/etl",
                 "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
                 "run": {"runId": "%s", "facets": {%s}},
                 "job": {"namespace": "etl", "name": "%s"},
                 "inputs": [%s], "outputs": [%s]}
                """.formatted(time, type, runId, runFacets, job, inputs, outputs);
    }

    private static String dataset(String name, String facets) {
        return "{\"namespace\": \"postgres://dwh:5432\", \"name\": \"" + name + "\", \"facets\": {" + facets + "}}";
    }

    private static boolean store(LineageRepository repo, String json, boolean statics) {
        try {
            return repo.storeStatic(JSON.readTree(json), json);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean store(LineageRepository repo, String json) {
        try {
            return repo.storeForeign(JSON.readTree(json), json);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static int count(Warehouse w, String sql, Object... args) {
        return w.dsl().resultQuery(sql, args).fetchOne(0, Integer.class);
    }

    @ParameterizedTest
    @MethodSource("databases")
    void theSameEventTwiceIsStoredOnceAndAChangedBodyIsANewEvent(String database) throws Exception {
        on(database, w -> {
            LineageRepository repo = new LineageRepository(w.dsl());
            String run = UUID.randomUUID().toString();
            String complete = event(run, "COMPLETE", "2026-11-30T01:00:00Z", "nightly.load_orders", "",
                    dataset("public.orders", ""), dataset("raw.orders", ""));

            assertThat(store(repo, complete)).isTrue();
            // the same event again, as another client formats it (spacing): a duplicate
            assertThat(store(repo, complete.replace("\n", " ").replace(": ", ":"))).isFalse();
            assertThat(count(w, "SELECT COUNT(*) FROM sluice.lineage_event WHERE run_id = ?", run)).isEqualTo(1);
            assertThat(count(w, "SELECT COUNT(*) FROM sluice.lineage_edge WHERE run_id = ?", run)).isEqualTo(1);

            // the same run, type, time and job with another body: kept as a new event
            String corrected = complete.replace("public.orders", "public.orders_v2");
            assertThat(store(repo, corrected)).isTrue();
            assertThat(count(w, "SELECT COUNT(*) FROM sluice.lineage_event WHERE run_id = ?", run)).isEqualTo(2);
            assertThat(repo.upstream("raw.orders", 1)).extracting(e -> e.from() + " -> " + e.to())
                    .containsExactlyInAnyOrder("public.orders -> raw.orders", "public.orders_v2 -> raw.orders");
        });
    }

    @ParameterizedTest
    @MethodSource("databases")
    void aFailedRunOfAnotherToolIsARunWithItsStateParentNominalTimeAndError(String database) throws Exception {
        on(database, w -> {
            LineageRepository repo = new LineageRepository(w.dsl());
            String run = UUID.randomUUID().toString();
            String parent = UUID.randomUUID().toString();
            String facets = """
                    "parent": {%s, "_schemaURL": "https://openlineage.io/spec/facets/1-0-1/ParentRunFacet.json#/$defs/ParentRunFacet",
                               "run": {"runId": "%s"}, "job": {"namespace": "etl", "name": "nightly"}},
                    "nominalTime": {%s, "_schemaURL": "https://openlineage.io/spec/facets/1-0-1/NominalTimeRunFacet.json#/$defs/NominalTimeRunFacet",
                                    "nominalStartTime": "2026-11-30T00:00:00Z", "nominalEndTime": "2026-12-01T00:00:00Z"}"""
                    .formatted(PRODUCER, parent, PRODUCER);
            String error = """
                    "errorMessage": {%s, "_schemaURL": "https://openlineage.io/spec/facets/1-0-1/ErrorMessageRunFacet.json#/$defs/ErrorMessageRunFacet",
                                     "message": "relation \\"public.orders\\" does not exist", "programmingLanguage": "python"}"""
                    .formatted(PRODUCER);
            // the FAIL arrives before the START: the run's state is still its terminal one
            assertThat(store(repo, event(run, "FAIL", "2026-11-30T01:05:00Z", "nightly.load_orders", error,
                    dataset("public.orders", ""), dataset("raw.orders", "")))).isTrue();
            assertThat(store(repo, event(run, "START", "2026-11-30T01:00:00Z", "nightly.load_orders", facets,
                    dataset("public.orders", ""), dataset("raw.orders", "")))).isTrue();

            LineageRun r = new LineageRuns(w.dsl()).find(run).orElseThrow();
            assertThat(r.runId()).isEqualTo(run);
            assertThat(r.namespace()).isEqualTo("etl");
            assertThat(r.job()).isEqualTo("nightly.load_orders");
            assertThat(r.state()).isEqualTo("FAIL");
            assertThat(r.parentRunId()).isEqualTo(parent);
            assertThat(r.parentJob()).isEqualTo("etl/nightly");
            assertThat(r.nominalStartTime()).isEqualTo(OffsetDateTime.parse("2026-11-30T00:00:00Z"));
            assertThat(r.nominalEndTime()).isEqualTo(OffsetDateTime.parse("2026-12-01T00:00:00Z"));
            assertThat(r.errorMessage()).isEqualTo("relation \"public.orders\" does not exist");
            assertThat(r.startedAt()).isEqualTo(OffsetDateTime.parse("2026-11-30T01:00:00Z"));
            assertThat(r.endedAt()).isEqualTo(OffsetDateTime.parse("2026-11-30T01:05:00Z"));
            assertThat(r.events()).isEqualTo(2);
            assertThat(r.facets().fieldNames()).toIterable().containsExactlyInAnyOrder("parent", "nominalTime", "errorMessage");
            assertThat(r.facets().path("errorMessage").path("programmingLanguage").asText()).isEqualTo("python");
            assertThat(r.inputs()).containsExactly("public.orders");
            assertThat(r.outputs()).containsExactly("raw.orders");

            // the runs of the dataset it meant to write show it, failed, with its error
            var runs = repo.runs("raw.orders", null);
            assertThat(runs).hasSize(1);
            assertThat(runs.get(0).get("run_id", String.class)).isEqualTo(run);
            assertThat(runs.get(0).get("parent_run_id", String.class)).isEqualTo(parent);
            assertThat(runs.get(0).get("state", String.class)).isEqualTo("FAIL");
            assertThat(runs.get(0).get("nominal_time", OffsetDateTime.class).toInstant())
                    .isEqualTo(OffsetDateTime.parse("2026-11-30T00:00:00Z").toInstant());
            assertThat(runs.get(0).get("error_message", String.class)).isEqualTo("relation \"public.orders\" does not exist");
            assertThat(runs.get(0).get("inputs", String.class)).isEqualTo("public.orders");
            assertThat(new LineageRuns(w.dsl()).find(UUID.randomUUID().toString())).isEmpty();
        });
    }

    @ParameterizedTest
    @MethodSource("databases")
    void columnLineageOfAnotherToolIsStoredWithItsTransformations(String database) throws Exception {
        on(database, w -> {
            LineageRepository repo = new LineageRepository(w.dsl());
            String columns = """
                    "columnLineage": {%s, "_schemaURL": "https://openlineage.io/spec/facets/1-2-0/ColumnLineageDatasetFacet.json#/$defs/ColumnLineageDatasetFacet",
                      "fields": {
                        "email_hash": {"inputFields": [{"namespace": "postgres://dwh:5432", "name": "public.customers", "field": "email",
                          "transformations": [{"type": "DIRECT", "subtype": "TRANSFORMATION", "description": "sha256(email)", "masking": true}]}]},
                        "total": {"inputFields": [{"namespace": "postgres://dwh:5432", "name": "public.orders", "field": "amount",
                          "transformations": [{"type": "DIRECT", "subtype": "AGGREGATION", "description": "sum(amount)", "masking": false},
                                              {"type": "INDIRECT", "subtype": "FILTER", "description": "WHERE status = 'paid'"}]}]},
                        "customer_id": {"inputFields": [{"namespace": "postgres://dwh:5432", "name": "public.orders", "field": "customer_id"}],
                          "transformationType": "IDENTITY", "transformationDescription": "identical"}}}"""
                    .formatted(PRODUCER);
            String run = UUID.randomUUID().toString();
            assertThat(store(repo, event(run, "COMPLETE", "2026-11-30T02:00:00Z", "nightly.customer_totals", "",
                    dataset("public.orders", "") + ", " + dataset("public.customers", ""), dataset("mart.customer_totals", columns)))).isTrue();

            assertThat(repo.columnOrigins("mart.customer_totals", "total")).containsExactly(
                    new LineageRepository.ColumnEdge("public.orders.amount", "mart.customer_totals.total", "AGGREGATION", false, "DIRECT",
                            "sum(amount)"),
                    new LineageRepository.ColumnEdge("public.orders.amount", "mart.customer_totals.total", "FILTER", false, "INDIRECT",
                            "WHERE status = 'paid'"));
            assertThat(repo.columnOrigins("mart.customer_totals", "email_hash")).containsExactly(
                    new LineageRepository.ColumnEdge("public.customers.email", "mart.customer_totals.email_hash", "TRANSFORMATION", true, "DIRECT",
                            "sha256(email)"));
            // the older shape: the field's transformationType and -Description
            assertThat(repo.columnOrigins("mart.customer_totals", "customer_id")).containsExactly(
                    new LineageRepository.ColumnEdge("public.orders.customer_id", "mart.customer_totals.customer_id", "IDENTITY", false, "DIRECT",
                            "identical"));
        });
    }

    @ParameterizedTest
    @MethodSource("databases")
    void aTwoJobCycleAndASelfEdgeAreWalkedOnce(String database) throws Exception {
        on(database, w -> {
            LineageRepository repo = new LineageRepository(w.dsl());
            // sync_a reads crm.a and writes crm.b; sync_b reads crm.b and writes crm.a; dedupe reads and writes crm.c from crm.b
            store(repo, event(UUID.randomUUID().toString(), "COMPLETE", "2026-11-30T03:00:00Z", "sync_a", "", dataset("crm.a", ""),
                    dataset("crm.b", "")));
            store(repo, event(UUID.randomUUID().toString(), "COMPLETE", "2026-11-30T03:10:00Z", "sync_b", "", dataset("crm.b", ""),
                    dataset("crm.a", "")));
            store(repo, event(UUID.randomUUID().toString(), "COMPLETE", "2026-11-30T03:20:00Z", "dedupe", "",
                    dataset("crm.b", "") + ", " + dataset("crm.c", ""), dataset("crm.c", "")));

            assertThat(repo.downstream("crm.a", 50)).extracting(e -> e.from() + " -> " + e.to() + " by " + e.job())
                    .containsExactly("crm.a -> crm.b by sync_a", "crm.b -> crm.a by sync_b", "crm.b -> crm.c by dedupe", "crm.c -> crm.c by dedupe");
            assertThat(repo.upstream("crm.a", 50)).extracting(e -> e.from() + " -> " + e.to())
                    .containsExactly("crm.b -> crm.a", "crm.a -> crm.b");
            assertThat(repo.upstream("crm.c", 50)).extracting(e -> e.from() + " -> " + e.to())
                    .containsExactlyInAnyOrder("crm.b -> crm.c", "crm.c -> crm.c", "crm.a -> crm.b", "crm.b -> crm.a");
            assertThat(repo.impact("crm.a", "none")).extracting(i -> i.dataset() + "@" + i.partition() + " " + i.level())
                    .containsExactly("crm.b@none 1", "crm.c@none 2");
            assertThat(repo.columnOrigins("crm.a", "id")).isEqualTo(List.of());
        });
    }

    // #51 item 4: a store written before V32 shows its other tools' jobs whole once migrated
    @ParameterizedTest
    @MethodSource("databases")
    void theMigrationMarksTheGraphOfIngestedRunsWrittenBefore(String database) throws Exception {
        String url = freshUrl(database);
        String schema = database.equals("h2") ? "SLUICE" : "sluice";
        Flyway before = Flyway.configure().dataSource(url, user(database), "").schemas(schema)
                .locations("classpath:db/migration/common", "classpath:db/migration/" + (database.equals("h2") ? "h2" : "postgresql"))
                .target(MigrationVersion.fromVersion("31")).load();
        before.migrate();
        String at = "TIMESTAMP WITH TIME ZONE '2026-11-30 04:00:00+00'";
        try (Connection c = DriverManager.getConnection(url, user(database), "")) {
            DSLContext old = DSL.using(c, database.equals("h2") ? SQLDialect.H2 : SQLDialect.POSTGRES);
            // an ingested dbt run (V25's lineage_run) and a Sluice step run, each with its edge and graph row as V31 wrote them
            old.execute("INSERT INTO sluice.lineage_run (run_id, namespace, job, state, partition_key, started_at, events, facets_json)"
                    + " VALUES ('r-dbt', 'dbt', 'model.jaffle_shop.orders', 'COMPLETE', 'none', " + at + ", 1, '{}')");
            for (String[] e : new String[][] {{"r-dbt", "model.jaffle_shop.orders", "jaffle.stg_orders", "jaffle.orders"},
                    {"r-own", "flights.silver.flights", "bronze.flights", "silver.flights"}}) {
                old.execute("INSERT INTO sluice.lineage_edge (run_id, job, partition_key, input_namespace, input_name, output_namespace,"
                        + " output_name, event_time, input_partition_from, input_partition_to) VALUES (?, ?, 'none', 'ns', ?, 'ns', ?, " + at + ", 'none', 'none')",
                        e[0], e[1], e[2], e[3]);
                old.execute("INSERT INTO sluice.lineage_graph (input_name, output_name, job, input_namespace, output_namespace, first_seen,"
                        + " last_seen) VALUES (?, ?, ?, 'ns', 'ns', " + at + ", " + at + ")", e[2], e[3], e[1]);
            }
        }
        try (Warehouse w = Warehouse.open(new WarehouseSpec(url, user(database), ""))) {
            LineageRepository repo = new LineageRepository(w.dsl());

            assertThat(repo.upstream("jaffle.orders", 1)).extracting(LineageRepository.Edge::job).containsExactly("model.jaffle_shop.orders");
            assertThat(repo.upstream("silver.flights", 1)).extracting(LineageRepository.Edge::job).containsExactly("flights");
        }
    }

    // #51 item 5: static lineage (OpenLineage 2.0 DatasetEvent, JobEvent) is stored
    @ParameterizedTest
    @MethodSource("databases")
    void datasetAndJobEventsAreStoredWithTheirFacets(String database) throws Exception {
        on(database, w -> {
            LineageRepository repo = new LineageRepository(w.dsl());
            String schemaV1 = """
                    {"eventTime": "2026-11-30T05:00:00Z", "producer": "https://example.org/catalog",
                     "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/DatasetEvent",
                     "dataset": {"namespace": "postgres://dwh:5432", "name": "mart.orders", "facets": {
                       "schema": {%s, "_schemaURL": "https://openlineage.io/spec/facets/1-1-0/SchemaDatasetFacet.json", "fields": [{"name": "id"}]},
                       "datasetType": {%s, "_schemaURL": "https://openlineage.io/spec/facets/1-0-0/DatasetTypeDatasetFacet.json", "datasetType": "TABLE"}}}}
                    """.formatted(PRODUCER, PRODUCER);
            // a later declaration: a new schema replaces the old one, the type stays
            String schemaV2 = """
                    {"eventTime": "2026-11-30T06:00:00Z", "producer": "https://example.org/catalog",
                     "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/DatasetEvent",
                     "dataset": {"namespace": "postgres://dwh:5432", "name": "mart.orders", "facets": {
                       "schema": {%s, "_schemaURL": "https://openlineage.io/spec/facets/1-1-0/SchemaDatasetFacet.json",
                                  "fields": [{"name": "id"}, {"name": "total"}]}}}}
                    """.formatted(PRODUCER);
            String job = """
                    {"eventTime": "2026-11-30T05:30:00Z", "producer": "https://example.org/dbt",
                     "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/JobEvent",
                     "job": {"namespace": "dbt", "name": "model.jaffle_shop.orders", "facets": {
                       "jobType": {%s, "_schemaURL": "https://openlineage.io/spec/facets/2-0-4/JobTypeJobFacet.json",
                                   "processingType": "BATCH", "integration": "DBT", "jobType": "MODEL"}}},
                     "inputs": [{"namespace": "postgres://dwh:5432", "name": "raw.orders"}],
                     "outputs": [{"namespace": "postgres://dwh:5432", "name": "mart.orders", "facets": {
                       "documentation": {%s, "_schemaURL": "https://openlineage.io/spec/facets/1-1-0/DocumentationDatasetFacet.json",
                                         "description": "one row per order"}}}]}
                    """.formatted(PRODUCER, PRODUCER);

            assertThat(store(repo, schemaV2, true)).isTrue(); // out of order: the later one first
            assertThat(store(repo, schemaV1, true)).isTrue();
            assertThat(store(repo, job, true)).isTrue();
            assertThat(store(repo, schemaV1.replace("\n", " "), true)).as("the same event again").isFalse();

            assertThat(count(w, "SELECT COUNT(*) FROM sluice.lineage_static_event")).isEqualTo(3);
            StaticLineage.Declared orders = repo.declared("mart.orders").orElseThrow();
            assertThat(orders.facets().path("schema").path("fields").findValuesAsText("name")).containsExactly("id", "total");
            assertThat(orders.facets().path("datasetType").path("datasetType").asText()).isEqualTo("TABLE");
            assertThat(orders.facets().path("documentation").path("description").asText()).isEqualTo("one row per order");
            assertThat(orders.jobs()).extracting(j -> j.job() + " " + j.role() + " " + j.facets().path("jobType").path("integration").asText())
                    .containsExactly("dbt/model.jaffle_shop.orders output DBT");
            assertThat(repo.declared("raw.orders").orElseThrow().jobs()).extracting(j -> j.job() + " " + j.role())
                    .containsExactly("dbt/model.jaffle_shop.orders input");
            assertThat(repo.known("mart.orders")).isTrue();
            assertThat(repo.datasets("orders", 10)).containsExactly("mart.orders", "raw.orders");
            assertThat(repo.declared("mart.nothing")).isEmpty();
            // nothing ran: no run, no edge
            assertThat(count(w, "SELECT COUNT(*) FROM sluice.lineage_run")).isZero();
            assertThat(count(w, "SELECT COUNT(*) FROM sluice.lineage_edge")).isZero();
        });
    }

    // #51 item 4: other tools' job names are not cut at their first dot
    @ParameterizedTest
    @MethodSource("databases")
    void otherToolsJobNamesAreShownWhole(String database) throws Exception {
        on(database, w -> {
            LineageRepository repo = new LineageRepository(w.dsl());
            // dbt names its jobs model.<project>.<model>; Hive's integration <command>.<database>.<table>
            store(repo, event(UUID.randomUUID().toString(), "COMPLETE", "2026-11-30T04:00:00Z", "model.jaffle_shop.stg_orders", "",
                    dataset("raw.orders", ""), dataset("jaffle.stg_orders", "")));
            store(repo, event(UUID.randomUUID().toString(), "COMPLETE", "2026-11-30T04:01:00Z", "model.jaffle_shop.stg_payments", "",
                    dataset("raw.payments", ""), dataset("jaffle.stg_payments", "")));
            store(repo, event(UUID.randomUUID().toString(), "COMPLETE", "2026-11-30T04:02:00Z", "model.jaffle_shop.orders", "",
                    dataset("jaffle.stg_orders", "") + ", " + dataset("jaffle.stg_payments", ""), dataset("jaffle.orders", "")));
            store(repo, event(UUID.randomUUID().toString(), "COMPLETE", "2026-11-30T04:03:00Z", "createtable_as_select.test.xxx", "",
                    dataset("jaffle.orders", ""), dataset("test.xxx", "")));

            assertThat(repo.upstream("jaffle.orders", 3)).extracting(e -> e.from() + " -> " + e.to() + " by " + e.job()).containsExactly(
                    "jaffle.stg_orders -> jaffle.orders by model.jaffle_shop.orders",
                    "jaffle.stg_payments -> jaffle.orders by model.jaffle_shop.orders",
                    "raw.orders -> jaffle.stg_orders by model.jaffle_shop.stg_orders",
                    "raw.payments -> jaffle.stg_payments by model.jaffle_shop.stg_payments");
            assertThat(repo.downstream("jaffle.orders", 3)).extracting(e -> e.from() + " -> " + e.to() + " by " + e.job())
                    .containsExactly("jaffle.orders -> test.xxx by createtable_as_select.test.xxx");
            assertThat(repo.impact("raw.orders", "none")).extracting(i -> i.dataset() + " " + i.level() + " by " + i.job()).containsExactly(
                    "jaffle.stg_orders 1 by model.jaffle_shop.stg_orders", "jaffle.orders 2 by model.jaffle_shop.orders",
                    "test.xxx 3 by createtable_as_select.test.xxx");
        });
    }
    @ParameterizedTest
    @MethodSource("databases")
    void eventsOfOneRunPostedAtOnceAreEachStoredOnceAndTheRunFoldsThemAll(String database) throws Exception {
        on(database, w -> {
            LineageRepository repo = new LineageRepository(w.dsl()); // one repository for every request, as sluice serve has
            ExecutorService pool = Executors.newFixedThreadPool(6);
            try {
                for (int round = 0; round < 15; round++) {
                    String run = UUID.randomUUID().toString();
                    String start = event(run, "START", "2026-11-30T01:00:00Z", "nightly.load_orders", "", dataset("public.orders", ""), "");
                    String complete = event(run, "COMPLETE", "2026-11-30T01:05:00Z", "nightly.load_orders", "", dataset("public.orders", ""),
                            dataset("raw.orders", ""));
                    // three clients retrying the START and three the COMPLETE, all released at once
                    CyclicBarrier together = new CyclicBarrier(6);
                    List<Future<Boolean>> posts = new ArrayList<>();
                    for (int i = 0; i < 6; i++) {
                        String json = i % 2 == 0 ? start : complete;
                        posts.add(pool.submit(() -> {
                            together.await(30, TimeUnit.SECONDS);
                            return store(repo, json);
                        }));
                    }
                    int stored = 0;
                    for (Future<Boolean> f : posts) {
                        stored += f.get(60, TimeUnit.SECONDS) ? 1 : 0; // an exception here is the 500 a client would get
                    }
                    assertThat(stored).as("round %d: each event stored once", round).isEqualTo(2);
                    assertThat(count(w, "SELECT COUNT(*) FROM sluice.lineage_event WHERE run_id = ?", run)).isEqualTo(2);
                    assertThat(count(w, "SELECT COUNT(*) FROM sluice.lineage_edge WHERE run_id = ?", run)).isEqualTo(1);
                    LineageRun r = new LineageRuns(w.dsl()).find(run).orElseThrow();
                    assertThat(r.events()).as("round %d: the run folds both events", round).isEqualTo(2);
                    assertThat(r.state()).isEqualTo("COMPLETE");
                    assertThat(r.startedAt()).isEqualTo(OffsetDateTime.parse("2026-11-30T01:00:00Z"));
                    assertThat(r.endedAt()).isEqualTo(OffsetDateTime.parse("2026-11-30T01:05:00Z"));
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            } finally {
                pool.shutdownNow();
            }
        });
    }
}
