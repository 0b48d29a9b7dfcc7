package dev.sluice.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.app.serve.CatalogApi;
import dev.sluice.app.serve.LineageServer;
import dev.sluice.app.serve.WarehouseMetrics;
import dev.sluice.lineage.store.LineageRepository;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.warehouse.Warehouse;
import dev.sluice.config.WarehouseSpec;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code sluice serve}'s ingest endpoint on a real socket: the OpenLineage spec's own example is
 * stored (201); an invalid event is refused with the failing path (400); a missing or wrong token
 * is refused (401); a child run's event before its parent's is stored and joined by run id. The
 * auth scheme is matched case-insensitively (RFC 7235 §2.1), the token exactly. Every answer, the
 * page's and the errors' alike, carries the same security headers.
 */
class ServeIT {

    private static HttpResponse<String> post(int port, String body, String auth) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/lineage"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        if (auth != null) {
            r.header("Authorization", auth);
        }
        return HttpClient.newHttpClient().send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String event(String runId, String type, String parent, String input, String output) {
        String parentFacet = parent == null ? "" : """
                "parent": {"_producer": "https://example.org/etl", "_schemaURL": "https://openlineage.io/spec/facets/1-0-1/ParentRunFacet.json#/$defs/ParentRunFacet",
                           "run": {"runId": "%s"}, "job": {"namespace": "etl", "name": "nightly"}}""".formatted(parent);
        return """
                {"eventTime": "2026-11-30T01:00:00Z", "eventType": "%s", "producer": "https://example.org/etl",
                 "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
                 "run": {"runId": "%s", "facets": {%s}},
                 "job": {"namespace": "etl", "name": "nightly.load_orders"},
                 "inputs": [{"namespace": "postgres://crm:5432", "name": "%s"}],
                 "outputs": [{"namespace": "postgres://dwh:5432", "name": "%s"}]}
                """.formatted(type, runId, parentFacet, input, output);
    }

    /** The security headers of every answer, by exact value: docs/serve.md names them. */
    private static final Map<String, String> SECURITY_HEADERS = Map.of(
            "Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self';"
                    + " connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
            "X-Content-Type-Options", "nosniff",
            "X-Frame-Options", "DENY",
            "Referrer-Policy", "no-referrer");

    private static HttpResponse<String> send(int port, String method, String path, String auth) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .method(method, method.equals("GET") || method.equals("HEAD") ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString("{not json"));
        if (auth != null) {
            r.header("Authorization", auth);
        }
        return HttpClient.newHttpClient().send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void everyAnswerCarriesTheSecurityHeaders() throws Exception {
        try (Warehouse w = Warehouse.open(new WarehouseSpec(TestHome.freshH2Url(), "sa", ""));
             LineageServer server = new LineageServer(new InetSocketAddress("127.0.0.1", 0), new LineageRepository(w.dsl()), "t0ken",
                     new CatalogApi(w.dsl(), null, Clock.systemUTC()), new WarehouseMetrics(w.dsl(), null, Clock.systemUTC()))) {
            int port = server.port();
            // what was asked → the status it must get: the page, its assets, the API, the metrics and errors of each handler
            Map<String, Integer> asked = new LinkedHashMap<>();
            asked.put("GET / -", 200);
            for (String script : List.of("common.js", "home.js", "graph.js", "dataset.js", "run.js", "app.js")) {
                asked.put("GET /" + script + " -", 200); // every script index.html loads
            }
            asked.put("GET /app.css -", 200);
            asked.put("GET /cytoscape.min.js -", 200);
            asked.put("GET /api/v1/datasets?q=air Bearer t0ken", 200);
            asked.put("GET /actuator/prometheus Bearer t0ken", 200);
            asked.put("GET /api/v1/datasets?q=air -", 401);
            asked.put("GET /actuator/prometheus -", 401);
            asked.put("POST /api/v1/lineage -", 401);
            asked.put("POST /api/v1/lineage Bearer t0ken", 400);
            asked.put("GET /api/v1/datasets/gold.nope Bearer t0ken", 404);
            asked.put("GET /no-such-page -", 404);
            asked.put("DELETE /api/v1/datasets/x Bearer t0ken", 405);
            asked.put("HEAD /api/v1/datasets?q=air Bearer t0ken", 405);
            asked.put("OPTIONS / -", 405);
            asked.put("POST /actuator/prometheus Bearer t0ken", 405);
            asked.put("GET /api/v1/lineage Bearer t0ken", 405);
            for (var e : asked.entrySet()) {
                String[] m = e.getKey().split(" ", 3);
                HttpResponse<String> r = send(port, m[0], m[1], m[2].equals("-") ? null : m[2]);
                assertThat(r.statusCode()).as(e.getKey() + ": " + r.body()).isEqualTo(e.getValue());
                SECURITY_HEADERS.forEach((name, value) -> assertThat(r.headers().allValues(name)).as(e.getKey() + " " + name)
                        .containsExactly(value));
                if (e.getValue() == 405) {
                    // every 405 says what is allowed (RFC 9110 §15.5.6); HEAD on the API was a 200 that computed the whole answer
                    assertThat(r.headers().allValues("Allow")).as(e.getKey()).containsExactly(m[1].equals("/api/v1/lineage") ? "POST" : "GET");
                }
            }
            // a '+' in a path is a plus, not a space (the path was form-decoded)
            HttpResponse<String> plus = send(port, "GET", "/api/v1/datasets/a+b", "Bearer t0ken");
            assertThat(plus.statusCode()).isEqualTo(404);
            assertThat(plus.body()).contains("'a+b'");
        }
    }

    @Test
    void theAuthSchemeIsCaseInsensitiveTheTokenExact() throws Exception {
        try (Warehouse w = Warehouse.open(new WarehouseSpec(TestHome.freshH2Url(), "sa", ""));
             LineageServer server = new LineageServer(new InetSocketAddress("127.0.0.1", 0), new LineageRepository(w.dsl()), "t0ken",
                     new CatalogApi(w.dsl(), null, Clock.systemUTC()), null)) {
            int port = server.port();
            for (String auth : new String[] {"Bearer t0ken", "bearer t0ken", "BEARER t0ken", "bEaReR t0ken", "bearer  t0ken"}) {
                assertThat(send(port, "GET", "/api/v1/datasets?q=x", auth).statusCode()).as(auth).isEqualTo(200);
                assertThat(send(port, "POST", "/api/v1/lineage", auth).statusCode()).as(auth + " (ingest: not JSON)").isEqualTo(400);
            }
            for (String auth : new String[] {"bearer nope", "BEARER T0KEN", "bearer t0ken2", "bearer t0ke", "bearert0ken", "Basic t0ken",
                    "t0ken", "bearer"}) {
                assertThat(send(port, "GET", "/api/v1/datasets?q=x", auth).statusCode()).as(auth).isEqualTo(401);
                assertThat(send(port, "POST", "/api/v1/lineage", auth).statusCode()).as(auth).isEqualTo(401);
            }
        }
    }

    @Test
    void ingestValidatesStoresAndGuards() throws Exception {
        try (Warehouse w = Warehouse.open(new WarehouseSpec(TestHome.freshH2Url(), "sa", ""));
             LineageServer server = new LineageServer(new InetSocketAddress("127.0.0.1", 0), new LineageRepository(w.dsl()), "t0ken")) {
            int port = server.port();
            String child = "0d0c3f0e-1a2b-4c3d-8e4f-5a6b7c8d9e0f";
            String parent = "9a8b7c6d-5e4f-4a3b-9c2d-1e0f2a3b4c5d";

            assertThat(post(port, event(child, "COMPLETE", parent, "public.orders", "raw.orders"), null).statusCode()).isEqualTo(401);
            assertThat(post(port, event(child, "COMPLETE", parent, "public.orders", "raw.orders"), "Bearer nope").statusCode()).isEqualTo(401);

            HttpResponse<String> bad = post(port, event("not-a-uuid", "COMPLETE", null, "a", "b").replace("2026-11-30T01:00:00Z", "yesterday"),
                    "Bearer t0ken");
            assertThat(bad.statusCode()).isEqualTo(400);
            assertThat(bad.body()).contains("$.run.runId").contains("$.eventTime");
            assertThat(post(port, "{not json", "Bearer t0ken").statusCode()).isEqualTo(400);

            // the child's COMPLETE arrives before the parent's START: both are stored and joined by run id
            assertThat(post(port, event(child, "COMPLETE", parent, "public.orders", "raw.orders"), "Bearer t0ken").statusCode()).isEqualTo(201);
            String parentStart = event(parent, "START", null, "public.orders", "raw.orders").replace("nightly.load_orders", "nightly");
            assertThat(post(port, parentStart, "Bearer t0ken").statusCode()).isEqualTo(201);
            // the child completed raw.orders; the parent, started and naming raw.orders as its output, is listed as running
            var runs = new LineageRepository(w.dsl()).runs("raw.orders", null);
            assertThat(runs).extracting(r -> r.get("run_id", String.class) + " " + r.get("parent_run_id", String.class) + " "
                    + r.get("state", String.class)).containsExactlyInAnyOrder(child + " " + parent + " COMPLETE", parent + " null START");
            assertThat(new LineageRepository(w.dsl()).upstream("raw.orders", 5)).extracting(e -> e.from() + " -> " + e.to())
                    .containsExactly("public.orders -> raw.orders");
            assertThat(w.dsl().resultQuery("SELECT COUNT(*) FROM sluice.lineage_event WHERE run_id IN (?, ?)", child, parent)
                    .fetchOne(0, Integer.class)).isEqualTo(2);

            Path example = TestHome.projectRoot().resolve("../shared/fixtures/openlineage-spec/tests/example_full_event.json").normalize();
            if (Files.isRegularFile(example)) {
                HttpResponse<String> ok = post(port, Files.readString(example), "Bearer t0ken");
                assertThat(ok.statusCode()).as(ok.body()).isEqualTo(201);
            }
            HttpResponse<String> get = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + "/api/v1/lineage")).header("Authorization", "Bearer t0ken").GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(get.statusCode()).isEqualTo(405);
        }
    }
}
