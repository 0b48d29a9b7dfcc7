package dev.sluice.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.app.cli.SluiceCommand;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.config.SluiceEnvironment;
import dev.sluice.hotpath.LiveConsumer;
import dev.sluice.hotpath.LivePublisher;
import dev.sluice.warehouse.Warehouse;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault suite's broker case, on the kafka-dev broker (a real KRaft broker in its own JVM): two
 * consumers are consuming 100,000 events (1,000,000 with {@code -Pfull}) when the broker is killed
 * with SIGKILL, then started again on the same data and port. The consumers ride it out and the
 * sink ends equal to the input: the same count, every event id once, the same sums of delay and
 * distance, every window equal to a count over the sink; 0 lost, 0 duplicated.
 */
class BrokerRestartIT {

    @TempDir
    Path home;

    private static final int EVENTS = Boolean.getBoolean("sluice.full") ? 1_000_000 : 100_000;
    private static final LocalDateTime T0 = LocalDateTime.parse("2001-01-02T00:00:00");

    @Test
    void aBrokerKilledAndRestartedLosesAndDuplicatesNothing() throws Exception {
        int port = KafkaDevPorts.free();
        SluiceEnvironment env = new SluiceEnvironment(Map.of("SLUICE_HOME", home.toString(), "SLUICE_WAREHOUSE_URL", TestHome.freshH2Url(),
                "SLUICE_PIPELINES", TestHome.projectRoot().resolve("pipelines").toString(),
                "SLUICE_KAFKA_BOOTSTRAP", "127.0.0.1:" + port, "SLUICE_FLIGHTS_TOPIC", "restart.events",
                "SLUICE_KAFKA_DEV_LIB", TestHome.projectRoot().resolve("kafka-dev/target/lib").toString()));
        try {
            assertThat(sluice(env, "kafka-dev", "start", "--port", Integer.toString(port))).startsWith("0 kafka-dev running");
            PipelineSpec spec = new PipelineSpecLoader(env.interpolator()).load(TestHome.projectRoot().resolve("pipelines/flights.yaml"));
            long delaySum = 0;
            long distanceSum = 0;
            try (LivePublisher publisher = LivePublisher.of(spec.hotPath(), Map.of())) {
                for (int i = 0; i < EVENTS; i++) {
                    LocalDateTime at = T0.plusNanos(i * 250_000_000L);
                    long delay = i % 211 - 40;
                    long distance = 150 + i % 1_300;
                    delaySum += delay;
                    distanceSum += distance;
                    String value = "{\"date\":\"" + at + "\",\"delay\":" + delay + ",\"distance\":" + distance
                            + ",\"origin\":\"" + List.of("ORD", "SFO", "ATL", "DEN").get(i % 4) + "\",\"destination\":\"LAX\"}";
                    publisher.publish("r-" + i, value.getBytes(StandardCharsets.UTF_8), at.toInstant(ZoneOffset.UTC).toEpochMilli());
                }
                publisher.flush();
            }
            try (Warehouse w = Warehouse.open(spec.warehouse(), 6)) {
                DSLContext dsl = w.dsl();
                // silver.airports as a batch load leaves it: Silver's unknown_airport rule judges the events too
                dsl.execute("CREATE SCHEMA IF NOT EXISTS silver");
                dsl.execute("CREATE TABLE silver.airports (iata VARCHAR(8) PRIMARY KEY)");
                dsl.execute("INSERT INTO silver.airports (iata) VALUES ('ORD'), ('SFO'), ('ATL'), ('DEN'), ('LAX')");
                LiveConsumer a = LiveConsumer.of(spec, w, Map.of(), LiveConsumer.Hooks.NONE);
                LiveConsumer b = LiveConsumer.of(spec, w, Map.of(), LiveConsumer.Hooks.NONE);
                CompletableFuture<Void> ra = CompletableFuture.runAsync(a);
                CompletableFuture<Void> rb = CompletableFuture.runAsync(b);
                String stored = "SELECT COALESCE(SUM(next_offset), 0) FROM sluice.hot_offset";
                until("a quarter of the events is stored", () -> dsl.resultQuery(stored).fetchOne(0, Long.class) >= EVENTS / 4);

                long pid = Long.parseLong(Files.readString(home.resolve("kafka-dev/broker.pid")).trim());
                ProcessHandle broker = ProcessHandle.of(pid).orElseThrow();
                broker.destroyForcibly(); // SIGKILL: no clean shutdown
                broker.onExit().get(30, TimeUnit.SECONDS);
                long whileDown = dsl.resultQuery(stored).fetchOne(0, Long.class);
                assertThat(whileDown).as("the broker died before the end").isLessThan(EVENTS);
                assertThat(ra).as("the consumers ride the outage out").isNotDone();
                assertThat(rb).isNotDone();
                assertThat(sluice(env, "kafka-dev", "start", "--port", Integer.toString(port))).startsWith("0 kafka-dev running");

                until("every event is stored after the restart", () -> dsl.resultQuery(stored).fetchOne(0, Long.class) == EVENTS);
                a.close();
                b.close();
                ra.get(60, TimeUnit.SECONDS);
                rb.get(60, TimeUnit.SECONDS);

                assertThat(dsl.resultQuery("SELECT COUNT(*), COUNT(DISTINCT _event_id), CAST(SUM(delay) AS BIGINT), CAST(SUM(distance) AS BIGINT)"
                        + " FROM bronze.flight_events").fetchOne().intoList())
                        .as("count, distinct ids, sum of delay, sum of distance").containsExactly((long) EVENTS, (long) EVENTS, delaySum, distanceSum);
                assertThat(dsl.resultQuery("SELECT COUNT(*) FROM sluice.quarantine").fetchOne(0, Long.class)).isZero();
                assertThat(dsl.resultQuery("SELECT CAST(SUM(flights) AS BIGINT) FROM gold.airport_delays_live").fetchOne(0, Long.class)).isEqualTo(EVENTS);
                assertThat(dsl.resultQuery("SELECT COUNT(*) FROM gold.airport_delays_live w WHERE w.flights <> (SELECT COUNT(DISTINCT e._content_hash)"
                        + " FROM bronze.flight_events e WHERE e.origin = w.origin AND e._event_epoch_s >= w.window_start_s"
                        + " AND e._event_epoch_s < w.window_end_s)").fetchOne(0, Long.class)).as("windows that disagree with the sink").isZero();
            }
        } finally {
            sluice(env, "kafka-dev", "stop");
        }
    }

    private static void until(String what, BooleanSupplier condition) {
        long end = System.nanoTime() + Duration.ofMinutes(EVENTS > 100_000 ? 30 : 4).toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as(what).isLessThan(end);
            java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(100).toNanos()); // a polling interval
        }
    }

    /** Runs a sluice command in this JVM: "<exit code> <stdout>". */
    private static String sluice(SluiceEnvironment env, String... args) {
        StringWriter out = new StringWriter();
        int code = SluiceCommand.execute(env, new PrintWriter(out, true), new PrintWriter(new StringWriter(), true), args);
        return code + " " + out;
    }
}
