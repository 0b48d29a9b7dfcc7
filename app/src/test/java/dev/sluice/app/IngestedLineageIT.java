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
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Lineage of other tools through {@code sluice serve} as a new user meets it (real socket, real
 * H2): a facet under {@code schema} is judged as a schema facet whatever its {@code _schemaURL}
 * says (400 naming the path); an event posted twice is stored once (201, then 200); a failed run
 * of another tool is a run for the catalog API and {@code sluice lineage runs}, with its state,
 * parent, nominal time and error; its column lineage answers {@code sluice lineage columns} with
 * the transformation.
 */
class IngestedLineageIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOKEN = "t0ken";
    private static final String P = "\"_producer\": \"https://example.org/etl\"";
    private static final String RUN = "5f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0";
    private static final String PARENT = "9a8b7c6d-5e4f-4a3b-9c2d-1e0f2a3b4c5d";

    @TempDir
    Path tmp;

    private static HttpResponse<String> send(int port, String path, String postBody) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).header("Authorization", "Bearer " + TOKEN);
        r = postBody == null ? r.GET() : r.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(postBody));
        return HttpClient.newHttpClient().send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String event(String runId, String type, String time, String runFacets, String output, String outputFacets) {
        return """
                {"eventTime": "%s", "eventType": "%s", "producer": "https://example.org/etl",
                 "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
                 "run": {"runId": "%s", "facets": {%s}},
                 "job": {"namespace": "etl", "name": "nightly.load_orders"},
                 "inputs": [{"namespace": "postgres://crm:5432", "name": "public.orders"}],
                 "outputs": [{"namespace": "postgres://dwh:5432", "name": "%s", "facets": {%s}}]}
                """.formatted(time, type, runId, runFacets, output, outputFacets);
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

    @Test
    void otherToolsRunsAndColumnsAreRunsAndColumns() throws Exception {
        String url = TestHome.freshH2Url();
        try (Warehouse w = Warehouse.open(new WarehouseSpec(url, "sa", ""));
             LineageServer server = new LineageServer(new InetSocketAddress("127.0.0.1", 0), new LineageRepository(w.dsl()), TOKEN,
                     new CatalogApi(w.dsl(), null, Clock.systemUTC()), null)) {
            int port = server.port();

            // 1. a facet under "schema" that claims to be a DataQualityAssertions facet is still a schema facet
            String mislabelled = event(RUN, "START", "2026-11-30T01:00:00Z", "", "raw.orders", """
                    "schema": {%s, "_schemaURL": "https://openlineage.io/spec/facets/1-0-0/DataQualityAssertionsDatasetFacet.json",
                               "fields": [{"type": "int64"}]}""".formatted(P));
            HttpResponse<String> bad = send(port, "/api/v1/lineage", mislabelled);
            assertThat(bad.statusCode()).isEqualTo(400);
            assertThat(JSON.readTree(bad.body()).path("errors").get(0).asText())
                    .isEqualTo("$.outputs[0].facets.schema.fields[0]: required property 'name' not found");

            // 2. the same event twice: stored (201), then recognised (200)
            String start = event(RUN, "START", "2026-11-30T01:00:00Z", """
                    "parent": {%s, "_schemaURL": "https://openlineage.io/spec/facets/1-0-1/ParentRunFacet.json#/$defs/ParentRunFacet",
                               "run": {"runId": "%s"}, "job": {"namespace": "etl", "name": "nightly"}},
                    "nominalTime": {%s, "_schemaURL": "https://openlineage.io/spec/facets/1-0-1/NominalTimeRunFacet.json#/$defs/NominalTimeRunFacet",
                                    "nominalStartTime": "2026-11-30T00:00:00Z"}""".formatted(P, PARENT, P), "raw.orders", "");
            String fail = event(RUN, "FAIL", "2026-11-30T01:02:00Z", """
                    "errorMessage": {%s, "_schemaURL": "https://openlineage.io/spec/facets/1-0-1/ErrorMessageRunFacet.json#/$defs/ErrorMessageRunFacet",
                                     "message": "disk full", "programmingLanguage": "python"}""".formatted(P), "raw.orders", "");
            HttpResponse<String> first = send(port, "/api/v1/lineage", start);
            assertThat(first.statusCode()).as(first.body()).isEqualTo(201);
            assertThat(JSON.readTree(first.body()).path("stored").asBoolean()).isTrue();
            assertThat(send(port, "/api/v1/lineage", fail).statusCode()).isEqualTo(201);
            HttpResponse<String> again = send(port, "/api/v1/lineage", fail);
            assertThat(again.statusCode()).isEqualTo(200);
            assertThat(JSON.readTree(again.body())).isEqualTo(JSON.readTree("{\"stored\": false, \"duplicate\": true}"));
            assertThat(w.dsl().fetchCount(LineageRepository.EVENTS)).isEqualTo(2);

            // 3. the failed run is a run: the API …
            HttpResponse<String> get = send(port, "/api/v1/runs/" + RUN, null);
            assertThat(get.statusCode()).as(get.body()).isEqualTo(200);
            JsonNode run = JSON.readTree(get.body());
            assertThat(run.path("kind").asText()).isEqualTo("ingested");
            assertThat(run.path("job").asText()).isEqualTo("etl/nightly.load_orders");
            assertThat(run.path("state").asText()).isEqualTo("FAIL");
            assertThat(run.path("parent_run_id").asText()).isEqualTo(PARENT);
            assertThat(run.path("parent_job").asText()).isEqualTo("etl/nightly");
            assertThat(run.path("nominal_start_time").asText()).isEqualTo("2026-11-30T00:00Z");
            assertThat(run.path("error_message").asText()).isEqualTo("disk full");
            assertThat(run.path("started_at").asText()).isEqualTo("2026-11-30T01:00Z");
            assertThat(run.path("ended_at").asText()).isEqualTo("2026-11-30T01:02Z");
            assertThat(run.path("facets").path("errorMessage").path("programmingLanguage").asText()).isEqualTo("python");
            assertThat(run.path("outputs").get(0).path("output").asText()).isEqualTo("raw.orders");
            assertThat(run.path("outputs").get(0).path("inputs").get(0).asText()).isEqualTo("public.orders");
            // … and sluice lineage runs
            JsonNode runs = JSON.readTree(sluice(url, "lineage", "runs", "raw.orders", "--format", "json"));
            assertThat(runs).hasSize(1);
            assertThat(runs.get(0).path("run_id").asText()).isEqualTo(RUN);
            assertThat(runs.get(0).path("state").asText()).isEqualTo("FAIL");
            assertThat(runs.get(0).path("parent_run_id").asText()).isEqualTo(PARENT);
            assertThat(runs.get(0).path("error_message").asText()).isEqualTo("disk full");
            assertThat(runs.get(0).path("nominal_time").asText()).startsWith("2026-11-30T00:00");
            assertThat(sluice(url, "lineage", "runs", "raw.orders")).contains("FAIL").contains("disk full");

            // 4. column lineage of another tool, with its transformations
            String columns = """
                    "columnLineage": {%s, "_schemaURL": "https://openlineage.io/spec/facets/1-2-0/ColumnLineageDatasetFacet.json#/$defs/ColumnLineageDatasetFacet",
                      "fields": {"total": {"inputFields": [{"namespace": "postgres://crm:5432", "name": "public.orders", "field": "amount",
                          "transformations": [{"type": "DIRECT", "subtype": "AGGREGATION", "description": "sum(amount)", "masking": false},
                                              {"type": "INDIRECT", "subtype": "FILTER", "description": "status = 'paid'"}]}]},
                                 "email_hash": {"inputFields": [{"namespace": "postgres://crm:5432", "name": "public.orders", "field": "email",
                          "transformations": [{"type": "DIRECT", "subtype": "TRANSFORMATION", "masking": true}]}]}}}""".formatted(P);
            String complete = event("6a1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0", "COMPLETE", "2026-11-30T02:00:00Z", "", "mart.customer_totals",
                    columns);
            assertThat(send(port, "/api/v1/lineage", complete).statusCode()).isEqualTo(201);
            assertThat(sluice(url, "lineage", "columns", "mart.customer_totals.total")).isEqualTo(String.format(
                    "%-44s %-44s %s%n%-44s %-44s %s%n%-44s %-44s %s%n", "from", "to", "how",
                    "public.orders.amount", "mart.customer_totals.total", "aggregation: sum(amount)",
                    "public.orders.amount", "mart.customer_totals.total", "indirect filter: status = 'paid'"));
            assertThat(sluice(url, "lineage", "columns", "mart.customer_totals.email_hash")).endsWith(String.format(
                    "%-44s %-44s %s%n", "public.orders.email", "mart.customer_totals.email_hash", "transformation, masked (PII)"));
        }
    }
}
