package dev.sluice.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.sluice.app.serve.WarehouseMetrics;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.LineageSpec;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import dev.sluice.lineage.LineageEmitter;
import dev.sluice.lineage.LineageTally;
import dev.sluice.lineage.RunEventType;
import dev.sluice.warehouse.Warehouse;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The live lineage metrics of a process that runs loads ({@code sluice scheduler --serve-port}):
 * an emitter with a queue of one event, sending over HTTP to a real local server that holds the
 * first request until released. While held, one event is in the sender's hands, one queued and
 * the other four dropped; once released, both are sent.
 */
class LineageMetricsIT {

    @Test
    void aFullQueueShowsItsDepthAndItsDroppedEvents() throws Exception {
        CountDownLatch sending = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/api/v1/lineage", x -> {
            x.getRequestBody().readAllBytes();
            sending.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            x.sendResponseHeaders(201, -1);
            x.close();
        });
        server.start();
        try (Warehouse w = Warehouse.open(TestHome.flightsSpec(TestHome.freshH2Url(), "sa", "").warehouse())) {
            LineageTally tally = new LineageTally();
            WarehouseMetrics metrics = new WarehouseMetrics(w.dsl(), null, Clock.systemUTC(), tally);
            assertThat(metrics.scrape()).contains("sluice_lineage_queue_depth 0.0").contains("sluice_lineage_events_total{outcome=\"sent\"} 0.0");
            LineageSpec spec = new LineageSpec(LineageSpec.Transport.HTTP, "", "http://127.0.0.1:" + server.getAddress().getPort(), "",
                    "sluice", 1);
            LineageEmitter emitter = tally.track(LineageEmitter.of(spec, "test"));
            RunId run = RunId.newId();
            emitter.emit(event(run));
            assertThat(sending.await(20, TimeUnit.SECONDS)).as("the server holds the first event").isTrue();
            for (int i = 1; i < 6; i++) {
                emitter.emit(event(run));
            }
            String held = metrics.scrape();
            release.countDown();
            assertThat(held).contains("sluice_lineage_queue_depth 1.0")
                    .contains("sluice_lineage_events_total{outcome=\"sent\"} 0.0")
                    .contains("sluice_lineage_events_total{outcome=\"dropped\"} 4.0")
                    .contains("sluice_lineage_events_total{outcome=\"failed\"} 0.0");
            emitter.close();
            assertThat(metrics.scrape()).contains("sluice_lineage_queue_depth 0.0")
                    .contains("sluice_lineage_events_total{outcome=\"sent\"} 2.0")
                    .contains("sluice_lineage_events_total{outcome=\"dropped\"} 4.0")
                    .contains("sluice_lineage_events_total{outcome=\"failed\"} 0.0");
        } finally {
            release.countDown();
            server.stop(0);
        }
    }

    private static LineageEmitter.RunEvent event(RunId run) {
        return new LineageEmitter.RunEvent(RunEventType.START, run, LineageEmitter.RunKind.JOB, "p", null, null,
                Partition.parseDaily("2001-07-01"), null, null, Instant.now(), List.of(), List.of(), null, "0".repeat(64), null, run);
    }
}
