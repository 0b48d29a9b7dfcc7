package dev.sluice.app.serve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.testkit.TestHome;
import dev.sluice.lineage.LineageEmitter;
import dev.sluice.lineage.LineageTally;
import dev.sluice.warehouse.Warehouse;
import java.time.Clock;
import org.junit.jupiter.api.Test;

/**
 * A garbage collection between reading the record and rendering it changes no value of the scrape.
 * The counters were Micrometer {@code FunctionCounter}s over boxed values, which hold them weakly:
 * after a GC they read 0 (seen in CI as {@code sluice_lineage_events_total{outcome="sent"} 0.0}
 * beside 8 recorded events).
 */
class WarehouseMetricsCollectedIT {

    @Test
    void aGcBeforeRenderingKeepsEveryCounter() throws Exception {
        try (Warehouse w = Warehouse.open(TestHome.flightsSpec(TestHome.freshH2Url(), "sa", "").warehouse())) {
            LineageTally tally = new LineageTally();
            LineageEmitter emitter = tally.track(new LineageEmitter() {
                @Override
                public void emit(RunEvent event) {
                }

                @Override
                public Stats stats() {
                    return new Stats(2, 8, 3, 1);
                }

                @Override
                public void close() {
                }
            });
            WarehouseMetrics metrics = new WarehouseMetrics(w.dsl(), null, Clock.systemUTC(), tally);
            for (int i = 0; i < 3; i++) {
                assertThat(metrics.scrape(System::gc)).contains("sluice_lineage_queue_depth 2.0")
                        .contains("sluice_lineage_events_total{outcome=\"sent\"} 8.0")
                        .contains("sluice_lineage_events_total{outcome=\"dropped\"} 3.0")
                        .contains("sluice_lineage_events_total{outcome=\"failed\"} 1.0");
            }
            emitter.close();
            assertThat(metrics.scrape(System::gc)).contains("sluice_lineage_queue_depth 0.0")
                    .contains("sluice_lineage_events_total{outcome=\"sent\"} 8.0");
        }
    }
}
