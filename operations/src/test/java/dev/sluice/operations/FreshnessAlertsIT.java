package dev.sluice.operations;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.sluice.operations.alert.AlertSink;
import dev.sluice.operations.freshness.DatasetFreshness;
import dev.sluice.operations.freshness.FreshnessMonitor;
import dev.sluice.operations.freshness.FreshnessState;
import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.batch.job.RunSummary;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.warehouse.Warehouse;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.config.SpecValidationException;
import dev.sluice.core.Partition;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Freshness and alerts on a real flights load: silver.flights (update interval PT24H, SLA PT40H)
 * goes OK → WARN (after 36 h) → BREACH (after 40 h) on a controllable clock, each transition alerted
 * once to a webhook (a local HTTP server) and never repeated by a second check; a gate whose error
 * check fails raises GATE_FAILED; an SLA not above 1.5 × the interval is refused by validation.
 */
class FreshnessAlertsIT {

    @TempDir
    Path specDir;

    /** A clock the test moves. */
    private static final class MovableClock extends Clock {
        volatile Instant now;

        MovableClock(Instant now) {
            this.now = now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    @Test
    void freshnessGoesOkWarnBreachWithOneAlertPerTransitionAndAFailedGateIsAlerted() throws Exception {
        List<JsonNode> received = new CopyOnWriteArrayList<>();
        HttpServer hook = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        hook.createContext("/alerts", exchange -> {
            received.add(new ObjectMapper().readTree(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        hook.start();
        try {
            Path specFile = TestHome.copyFlightsSpec(specDir);
            // the project's spec declares the datasets (silver.flights: PT24H, SLA PT40H) and an alert webhook from the environment
            String spec = Files.readString(specFile).replace("webhook: ${SLUICE_ALERT_WEBHOOK:-}",
                            "webhook: http://127.0.0.1:" + hook.getAddress().getPort() + "/alerts")
                    // the sink gate fails: avg delays above 5 minutes exist every day
                    .replace("column: avg_delay_min, min_value: -120, max_value: 2880}", "column: avg_delay_min, min_value: -120, max_value: 5}");
            Files.writeString(specFile, spec);
            var env = TestHome.environment(TestHome.withSampleData(), TestHome.freshH2Url(), "sa", "");
            PipelineSpec flights = new PipelineSpecLoader(env.interpolator()).load(specFile);
            try (Warehouse w = Warehouse.open(flights.warehouse())) {
                MovableClock clock = new MovableClock(Instant.now());
                FreshnessMonitor monitor = new FreshnessMonitor(w.dsl(), clock);
                AlertSink alerts = AlertSink.of(flights);
                assertThat(monitor.status(flights)).extracting(d -> d.dataset().qualifiedName() + " " + d.state())
                        .containsExactly("silver.flights NEVER", "gold.airport_daily_delays NEVER", "gold.route_daily NEVER",
                                "gold.airport_monthly_delays NEVER", "silver.airports NEVER");

                RunSummary run = new PipelineRunner(w, TestHome.withSampleData()).run(flights, Partition.parseDaily("2001-02-22"),
                        RunOptions.plain());
                assertThat(run.status().name()).isEqualTo("FAILED");
                assertThat(received).hasSize(1);
                assertThat(received.get(0).get("kind").asText()).isEqualTo("GATE_FAILED");
                assertThat(received.get(0).get("dataset").asText()).isEqualTo("gold.airport_daily_delays");
                assertThat(received.get(0).get("partition").asText()).isEqualTo("2001-02-22");
                assertThat(received.get(0).get("message").asText()).contains("check avg_delay_in_range");

                // silver passed its gate and was published: now it ages
                Instant published = w.dsl().resultQuery("SELECT published_at FROM sluice.published_partition WHERE dataset = 'silver.flights'")
                        .fetchOne(0, java.time.OffsetDateTime.class).toInstant();
                List<String> states = new java.util.ArrayList<>();
                for (Duration age : List.of(Duration.ofHours(1), Duration.ofHours(36), Duration.ofHours(37), Duration.ofHours(38),
                        Duration.ofHours(40), Duration.ofHours(41), Duration.ofHours(60))) {
                    clock.now = published.plus(age);
                    monitor.check(flights, alerts);
                    states.add(age.toHours() + "h " + monitor.status(flights).get(0).state());
                }
                // the Gold tables stay unpublished (their gate failed): NEVER, and never alerted
                assertThat(states).containsExactly("1h OK", "36h OK", "37h WARN", "38h WARN", "40h WARN", "41h BREACH", "60h BREACH");
                assertThat(received).extracting(n -> n.get("kind").asText())
                        .containsExactly("GATE_FAILED", "FRESHNESS_WARN", "FRESHNESS_BREACH");
                assertThat(received.get(1).get("dataset").asText()).isEqualTo("silver.flights");
                assertThat(received.get(2).get("message").asText()).startsWith("last update: partition 2001-02-22 published ")
                        .contains("PT41H ago (interval PT24H, warn after PT36H, SLA PT40H); owner flights-data-team");

                // back within the interval (a new publication): one recovery alert
                clock.now = published.plus(Duration.ofHours(2));
                monitor.check(flights, alerts);
                assertThat(received).extracting(n -> n.get("kind").asText()).last().isEqualTo("FRESHNESS_OK");
            }
            // an SLA that leaves no room for lateness is refused
            Files.writeString(specFile, spec.replace("freshness_sla: PT40H", "freshness_sla: PT36H"));
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> new PipelineSpecLoader(env.interpolator()).load(specFile))
                    .isInstanceOf(SpecValidationException.class)
                    .hasMessageContaining("datasets.silver.flights.freshness_sla = PT36H: the freshness SLA must exceed 1.5 × the update interval (PT36H)");
        } finally {
            hook.stop(0);
        }
    }
}
