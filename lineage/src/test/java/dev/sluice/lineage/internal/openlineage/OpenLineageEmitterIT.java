package dev.sluice.lineage.internal.openlineage;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.sluice.config.LineageSpec;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import dev.sluice.lineage.LineageDataset;
import dev.sluice.lineage.LineageEmitter;
import dev.sluice.lineage.RunEventType;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The HTTP transport against a real local HTTP server (the JDK's): events arrive as
 * {@code POST /api/v1/lineage} with the bearer token; an unreachable endpoint is counted and
 * logged, never thrown; a full queue drops and counts instead of blocking.
 */
class OpenLineageEmitterIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static LineageEmitter.RunEvent event(RunEventType type, RunId run) {
        LineageDataset out = new LineageDataset("h2:mem:x", "silver.t", List.of(new LineageDataset.Field("a", "long")), "_partition",
                "2001-07-01", "3", 42L);
        return new LineageEmitter.RunEvent(type, run, LineageEmitter.RunKind.JOB, "p", null, null, Partition.parseDaily("2001-07-01"),
                Instant.parse("2001-07-01T00:00:00Z"), Instant.parse("2001-07-02T00:00:00Z"), Instant.now(), List.of(), List.of(out),
                null, "0".repeat(64), null, run);
    }

    @Test
    void eventsArriveOverHttpWithTheBearerToken() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        List<String> auth = new CopyOnWriteArrayList<>();
        List<JsonNode> bodies = new CopyOnWriteArrayList<>();
        CountDownLatch two = new CountDownLatch(2);
        server.createContext("/api/v1/lineage", x -> {
            auth.add(x.getRequestMethod() + " " + x.getRequestHeaders().getFirst("Authorization"));
            bodies.add(JSON.readTree(new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
            x.sendResponseHeaders(201, -1);
            x.close();
            two.countDown();
        });
        server.start();
        try {
            LineageSpec spec = new LineageSpec(LineageSpec.Transport.HTTP, "", "http://127.0.0.1:" + server.getAddress().getPort(),
                    "s3cret-token", "sluice-test", 100);
            RunId run = RunId.newId();
            OpenLineageEmitter emitter = new OpenLineageEmitter(spec, "1.2.3");
            emitter.emit(event(RunEventType.START, run));
            emitter.emit(event(RunEventType.COMPLETE, run));
            assertThat(two.await(20, TimeUnit.SECONDS)).isTrue();
            emitter.close();
            assertThat(auth).containsExactly("POST Bearer s3cret-token", "POST Bearer s3cret-token");
            assertThat(bodies).extracting(b -> b.path("eventType").asText()).containsExactly("START", "COMPLETE");
            JsonNode b = bodies.get(1);
            assertThat(b.path("run").path("runId").asText()).isEqualTo(run.toString());
            assertThat(b.path("job").path("namespace").asText()).isEqualTo("sluice-test");
            assertThat(b.path("outputs").get(0).path("outputFacets").path("outputStatistics").path("rowCount").asLong()).isEqualTo(42);
            assertThat(b.path("run").path("facets").path("processing_engine").path("version").asText()).isEqualTo("1.2.3");
            assertThat(emitter.stats()).isEqualTo(new LineageEmitter.Stats(0, 2, 0, 0));
            assertThat(spec.toString()).doesNotContain("s3cret-token");
        } finally {
            server.stop(0);
        }
    }

    @Test
    void anUnreachableEndpointIsCountedNotThrown() {
        LineageSpec spec = new LineageSpec(LineageSpec.Transport.HTTP, "", "http://127.0.0.1:9", "", "sluice", 100);
        OpenLineageEmitter emitter = new OpenLineageEmitter(spec, "dev");
        RunId run = RunId.newId();
        emitter.emit(event(RunEventType.START, run));
        emitter.emit(event(RunEventType.FAIL, run));
        emitter.close();
        assertThat(emitter.stats()).isEqualTo(new LineageEmitter.Stats(0, 0, 0, 2));
    }

    @Test
    void aFullQueueDropsAndCountsInsteadOfBlocking() throws Exception {
        CountDownLatch sending = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        io.openlineage.client.transports.Transport slow = new io.openlineage.client.transports.Transport() {
            @Override
            public void emit(io.openlineage.client.OpenLineage.RunEvent e) {
                sending.countDown();
                try {
                    release.await();
                } catch (InterruptedException x) {
                    Thread.currentThread().interrupt();
                }
            }

            @Override
            public void emit(io.openlineage.client.OpenLineage.DatasetEvent e) {
            }

            @Override
            public void emit(io.openlineage.client.OpenLineage.JobEvent e) {
            }
        };
        LineageSpec spec = new LineageSpec(LineageSpec.Transport.CONSOLE, "", null, "", "sluice", 2);
        List<String> stored = new CopyOnWriteArrayList<>();
        OpenLineageEmitter emitter = new OpenLineageEmitter(spec, "dev", slow, (event, json) -> stored.add(json));
        RunId run = RunId.newId();
        emitter.emit(event(RunEventType.START, run));
        assertThat(sending.await(20, TimeUnit.SECONDS)).as("the sender holds the first event").isTrue();
        // the transport blocks until released: were emit to wait for it, this loop would never end
        for (int i = 1; i < 10; i++) {
            emitter.emit(event(RunEventType.START, run));
        }
        assertThat(emitter.stats()).as("one in the sender's hands, two queued, seven dropped").isEqualTo(new LineageEmitter.Stats(2, 0, 7, 0));
        release.countDown();
        emitter.close();
        assertThat(emitter.stats()).isEqualTo(new LineageEmitter.Stats(0, 3, 7, 0));
        // Sluice's own store has every event, whatever the transport did
        assertThat(stored).hasSize(10).allSatisfy(json -> assertThat(json).contains("\"eventType\":\"START\""));
    }
}
