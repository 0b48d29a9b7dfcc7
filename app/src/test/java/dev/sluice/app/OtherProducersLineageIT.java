package dev.sluice.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.app.cli.SluiceCommand;
import dev.sluice.app.serve.CatalogApi;
import dev.sluice.app.serve.LineageServer;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.SluiceEnvironment;
import dev.sluice.config.WarehouseSpec;
import dev.sluice.lineage.store.LineageRepository;
import dev.sluice.warehouse.Warehouse;
import io.openlineage.client.OpenLineage;
import io.openlineage.client.transports.ApiKeyTokenProvider;
import io.openlineage.client.transports.HttpConfig;
import io.openlineage.client.transports.HttpTransport;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What real producers send, through {@code sluice serve} (real socket, real H2), each sent by the
 * real openlineage-java client (1.55) through its own {@link HttpTransport}, which throws on an
 * answer other than 2xx (issue #51): a START with a custom run facet ({@code DefaultRunFacet}, its
 * {@code _schemaURL} a pointer into the core) and a JobTypeJobFacet with the
 * {@code eventContentMode} revision is stored; dbt's job names stay whole in the graph API, the
 * dataset API and {@code sluice lineage upstream}; a DatasetEvent and a JobEvent are stored with
 * their facets and shown by the dataset API.
 */
class OtherProducersLineageIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOKEN = "t0ken";
    private static final URI PRODUCER = URI.create("https://github.com/example/etl/1.0");

    @TempDir
    Path tmp;

    private static JsonNode get(int port, String path) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Authorization", "Bearer " + TOKEN).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    private String sluice(String url, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Map<String, String> env = Map.of("SLUICE_PIPELINES", TestHome.projectRoot().resolve("pipelines").toString(),
                "SLUICE_HOME", tmp.resolve("home").toString(), "SLUICE_WAREHOUSE_URL", url);
        int code = SluiceCommand.execute(new SluiceEnvironment(env), new PrintWriter(out, true), new PrintWriter(err, true), args);
        assertThat(code).as(err.toString()).isZero();
        return out.toString();
    }

    private static HttpTransport transport(int port) {
        HttpConfig config = new HttpConfig();
        config.setUrl(URI.create("http://127.0.0.1:" + port));
        config.setEndpoint("/api/v1/lineage");
        ApiKeyTokenProvider token = new ApiKeyTokenProvider();
        token.setApiKey(TOKEN);
        config.setAuth(token);
        return new HttpTransport(config);
    }

    private static OpenLineage.InputDataset input(OpenLineage ol, String name) {
        return ol.newInputDatasetBuilder().namespace("postgres://dwh:5432").name(name).build();
    }

    private static OpenLineage.OutputDataset output(OpenLineage ol, String name) {
        return ol.newOutputDatasetBuilder().namespace("postgres://dwh:5432").name(name).build();
    }

    private static OpenLineage.RunEvent complete(OpenLineage ol, String job, List<OpenLineage.InputDataset> inputs, String output) {
        return ol.newRunEventBuilder().eventType(OpenLineage.RunEvent.EventType.COMPLETE).eventTime(ZonedDateTime.parse("2026-11-30T02:00:00Z"))
                .run(ol.newRun(UUID.randomUUID(), null)).job(ol.newJob("dbt", job, null)).inputs(inputs).outputs(List.of(output(ol, output)))
                .build();
    }

    @Test
    void whatTheJavaClientSendsIsStoredAndShown() throws Exception {
        String url = TestHome.freshH2Url();
        try (Warehouse w = Warehouse.open(new WarehouseSpec(url, "sa", ""));
             LineageServer server = new LineageServer(new InetSocketAddress("127.0.0.1", 0), new LineageRepository(w.dsl()), TOKEN,
                     new CatalogApi(w.dsl(), null, Clock.systemUTC()), null);
             HttpTransport transport = transport(server.port())) {
            int port = server.port();
            OpenLineage ol = new OpenLineage(PRODUCER);

            // items 1 and 2: a START with a custom run facet and a job type facet of the 2-0-4 revision the client knows
            OpenLineage.RunFacet attempt = ol.newRunFacet();
            attempt.getAdditionalProperties().put("attempt", 3);
            UUID runId = UUID.fromString("3f5e2d1c-4b5a-4968-8776-a5b4c3d2e1f0");
            OpenLineage.JobTypeJobFacet jobType = ol.newJobTypeJobFacetBuilder().processingType("BATCH").integration("SPARK").jobType("JOB")
                    .emissionPattern(ol.newJobTypeJobFacetEmissionPatternBuilder().eventTrigger("EVENT_BASED").eventContentMode("ACCUMULATIVE").build())
                    .build();
            OpenLineage.RunEvent start = ol.newRunEventBuilder().eventType(OpenLineage.RunEvent.EventType.START)
                    .eventTime(ZonedDateTime.parse("2026-11-30T01:00:00Z"))
                    .run(ol.newRun(runId, ol.newRunFacetsBuilder().put("myTool_attempt", attempt).build()))
                    .job(ol.newJob("etl", "orders.load", ol.newJobFacetsBuilder().jobType(jobType).build()))
                    .inputs(List.of(input(ol, "public.orders"))).outputs(List.of(output(ol, "raw.orders"))).build();
            transport.emit(start);

            JsonNode run = get(port, "/api/v1/runs/" + runId);
            assertThat(run.path("kind").asText()).isEqualTo("ingested");
            assertThat(run.path("job").asText()).isEqualTo("etl/orders.load");
            assertThat(run.path("state").asText()).isEqualTo("START");
            assertThat(run.path("facets").path("myTool_attempt").path("attempt").asInt()).isEqualTo(3);
            assertThat(run.path("facets").path("myTool_attempt").path("_schemaURL").asText())
                    .isEqualTo("https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunFacet");
            String stored = w.dsl().resultQuery("SELECT event_json FROM sluice.lineage_event WHERE run_id = ?", runId.toString())
                    .fetchOne(0, String.class);
            // kept as sent: the job type facet with the revision's field
            assertThat(JSON.readTree(stored).path("job").path("facets").path("jobType").path("emissionPattern").path("eventContentMode").asText())
                    .isEqualTo("ACCUMULATIVE");

            // item 4: dbt models are jobs of their own, named whole
            transport.emit(complete(ol, "model.jaffle_shop.stg_orders", List.of(input(ol, "raw.orders")), "jaffle.stg_orders"));
            transport.emit(complete(ol, "model.jaffle_shop.orders", List.of(input(ol, "jaffle.stg_orders")), "jaffle.orders"));
            JsonNode graph = get(port, "/api/v1/graph/jaffle.orders");
            assertThat(graph.path("edges").findValuesAsText("job")).containsExactlyInAnyOrder("model.jaffle_shop.orders", "model.jaffle_shop.stg_orders");
            JsonNode dataset = get(port, "/api/v1/datasets/jaffle.orders");
            assertThat(dataset.path("upstream").findValuesAsText("job")).containsExactly("model.jaffle_shop.orders", "model.jaffle_shop.stg_orders");
            assertThat(sluice(url, "lineage", "upstream", "jaffle.orders")).isEqualTo(String.format("%-36s %-36s %s%n%-36s %-36s %s%n%-36s %-36s %s%n",
                    "from", "to", "job", "jaffle.stg_orders", "jaffle.orders", "model.jaffle_shop.orders",
                    "raw.orders", "jaffle.stg_orders", "model.jaffle_shop.stg_orders"));

            // item 5: static lineage, stored with its facets
            transport.emit(ol.newDatasetEvent(ZonedDateTime.parse("2026-11-30T03:00:00Z"), ol.newStaticDatasetBuilder()
                    .namespace("postgres://dwh:5432").name("jaffle.orders")
                    .facets(ol.newDatasetFacetsBuilder().datasetType(ol.newDatasetTypeDatasetFacet("TABLE", null))
                            .documentation(ol.newDocumentationDatasetFacet("one row per order", null)).build()).build()));
            transport.emit(ol.newJobEvent(ZonedDateTime.parse("2026-11-30T03:05:00Z"),
                    ol.newJob("dbt", "model.jaffle_shop.customers", ol.newJobFacetsBuilder()
                            .jobType(ol.newJobTypeJobFacetBuilder().processingType("BATCH").integration("DBT").jobType("MODEL").build()).build()),
                    List.of(input(ol, "jaffle.orders")), List.of(output(ol, "jaffle.customers"))));
            assertThat(w.dsl().fetchCount(w.dsl().selectFrom("sluice.lineage_static_event"))).isEqualTo(2);

            JsonNode declared = get(port, "/api/v1/datasets/jaffle.orders").path("declared");
            assertThat(declared.path("facets").path("datasetType").path("datasetType").asText()).isEqualTo("TABLE");
            assertThat(declared.path("facets").path("documentation").path("description").asText()).isEqualTo("one row per order");
            assertThat(declared.path("jobs")).hasSize(1);
            assertThat(declared.path("jobs").get(0).path("job").asText()).isEqualTo("dbt/model.jaffle_shop.customers");
            assertThat(declared.path("jobs").get(0).path("role").asText()).isEqualTo("input");
            assertThat(declared.path("jobs").get(0).path("facets").path("jobType").path("integration").asText()).isEqualTo("DBT");
            // a dataset only a JobEvent named is a dataset of the catalog
            assertThat(get(port, "/api/v1/datasets?q=customers").path("datasets").get(0).asText()).isEqualTo("jaffle.customers");
            assertThat(get(port, "/api/v1/datasets/jaffle.customers").path("declared").path("jobs").get(0).path("role").asText())
                    .isEqualTo("output");
        }
    }
}
