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
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hot path killed (SIGKILL) at each of its fault points, three processes in a row on the same
 * warehouse and consumer group: inside a batch's transaction before its offsets are stored, with
 * its offsets stored but the transaction not committed, and after the commit before the offsets
 * reach Kafka (the next consumer must take its position from the warehouse, not from Kafka's
 * committed offsets, which lag behind). A last consumer in this JVM then reads to the end. 30,000
 * flight events on the kafka-dev broker (its own JVM), every 50th an exact duplicate of the one
 * before under its own id, and 12 poison records: every event is in the sink once with the input's
 * sums, every poison record once in the quarantine, each window equal to a count over the sink, and
 * each partition's stored event count equal to what it holds.
 */
class HotPathKillIT {

    private static final int EVENTS = 30_000;
    private static final int POISON = 12;
    private static final LocalDateTime T0 = LocalDateTime.parse("2001-01-02T00:00:00");

    @TempDir
    Path home;

    @Test
    void killsAtEachHotPathFaultPointLoseAndDuplicateNothing() throws Exception {
        int port = KafkaDevPorts.free();
        Map<String, String> vars = new HashMap<>(Map.of("SLUICE_HOME", home.toString(),
                "SLUICE_WAREHOUSE_URL", TestHome.freshH2Url() + ";WRITE_DELAY=0",
                "SLUICE_PIPELINES", TestHome.projectRoot().resolve("pipelines").toString(),
                "SLUICE_KAFKA_BOOTSTRAP", "127.0.0.1:" + port, "SLUICE_FLIGHTS_TOPIC", "kill.events",
                "SLUICE_FLIGHTS_LATENESS", "PT200H",
                "SLUICE_KAFKA_DEV_LIB", TestHome.projectRoot().resolve("kafka-dev/target/lib").toString()));
        SluiceEnvironment env = new SluiceEnvironment(vars);
        try {
            assertThat(sluice(env, "kafka-dev", "start", "--port", Integer.toString(port))).startsWith("0 kafka-dev running");
            PipelineSpec spec = new PipelineSpecLoader(env.interpolator()).load(TestHome.projectRoot().resolve("pipelines/flights.yaml"));
            long delaySum = 0;
            long distanceSum = 0;
            try (LivePublisher publisher = LivePublisher.of(spec.hotPath(), Map.of())) {
                String previous = null;
                for (int i = 0; i < EVENTS; i++) {
                    LocalDateTime at = T0.plusSeconds(i * 2L);
                    long delay = i % 211 - 40;
                    long distance = 150 + i % 1_300;
                    String value = "{\"date\":\"" + at + "\",\"delay\":" + delay + ",\"distance\":" + distance
                            + ",\"origin\":\"" + List.of("ORD", "SFO", "ATL", "DEN").get(i % 4) + "\",\"destination\":\"LAX\"}";
                    if (i % 50 == 49) {
                        value = previous; // an exact duplicate under its own id
                    }
                    var parsed = new com.fasterxml.jackson.databind.ObjectMapper().readTree(value);
                    delaySum += parsed.get("delay").asLong();
                    distanceSum += parsed.get("distance").asLong();
                    publisher.publish("k-" + i, value.getBytes(StandardCharsets.UTF_8), at.toInstant(ZoneOffset.UTC).toEpochMilli());
                    previous = value;
                    if (i % (EVENTS / POISON) == 7) {
                        publisher.publish("bad-" + i, "{not json".getBytes(StandardCharsets.UTF_8), at.toInstant(ZoneOffset.UTC).toEpochMilli());
                    }
                }
                publisher.flush();
            }
            try (Warehouse w = Warehouse.open(spec.warehouse(), 4)) {
                DSLContext dsl = w.dsl();
                // silver.airports as a batch load leaves it: Silver's unknown_airport rule judges the events too
                dsl.execute("CREATE SCHEMA IF NOT EXISTS silver");
                dsl.execute("CREATE TABLE silver.airports (iata VARCHAR(8) PRIMARY KEY)");
                dsl.execute("INSERT INTO silver.airports (iata) VALUES ('ORD'), ('SFO'), ('ATL'), ('DEN'), ('LAX')");
            }
            Map<String, String> processEnv = new HashMap<>(vars);
            List<String> killed = new ArrayList<>();
            for (String point : List.of("hot-batch:in-transaction#3", "hot-batch:offsets-stored#2", "hot-batch:committed#4")) {
                FaultPointKill.Reached r = FaultPointKill.killAtOrEnd(point, processEnv, 5, "hot-path", "flights");
                assertThat(r.killed()).as("the hot path reached %s; its last lines:\n%s", point, r.tail()).isTrue();
                killed.add(point);
            }
            try (Warehouse w = Warehouse.open(spec.warehouse(), 4)) {
                DSLContext dsl = w.dsl();
                long afterKills = dsl.resultQuery("SELECT COUNT(*) FROM bronze.flight_events").fetchOne(0, Long.class);
                assertThat(afterKills).as("the killed consumers stored some batches, not all").isPositive().isLessThan(EVENTS);
                LiveConsumer last = LiveConsumer.of(spec, w, Map.of(), LiveConsumer.Hooks.NONE);
                CompletableFuture<Void> running = CompletableFuture.runAsync(last);
                String stored = "SELECT COUNT(*) FROM bronze.flight_events";
                until("every event is stored after " + killed, () -> dsl.resultQuery(stored).fetchOne(0, Long.class) >= EVENTS
                        && dsl.resultQuery("SELECT COUNT(*) FROM sluice.quarantine").fetchOne(0, Long.class) >= POISON);
                last.close();
                running.get(60, TimeUnit.SECONDS);

                assertThat(dsl.resultQuery("SELECT COUNT(*), COUNT(DISTINCT _event_id), CAST(SUM(delay) AS BIGINT), CAST(SUM(distance) AS BIGINT)"
                        + " FROM bronze.flight_events").fetchOne().intoList())
                        .as("count, distinct ids, sum of delay, sum of distance").containsExactly((long) EVENTS, (long) EVENTS, delaySum, distanceSum);
                assertThat(dsl.resultQuery("SELECT COUNT(*), COUNT(DISTINCT source || '@' || source_pos) FROM sluice.quarantine").fetchOne().intoList())
                        .as("poison records quarantined, each (topic partition, offset) once").containsExactly((long) POISON, (long) POISON);
                assertThat(dsl.resultQuery("SELECT CAST(SUM(events_stored) AS BIGINT) FROM sluice.hot_offset").fetchOne(0, Long.class))
                        .as("events counted as stored by the partitions' health").isEqualTo(EVENTS);
                assertThat(dsl.resultQuery("SELECT CAST(SUM(flights) AS BIGINT) FROM gold.airport_delays_live").fetchOne(0, Long.class))
                        .as("flights in the live windows (exact duplicates once)").isEqualTo(EVENTS - EVENTS / 50);
                assertThat(dsl.resultQuery("SELECT COUNT(*) FROM gold.airport_delays_live w WHERE w.flights <> (SELECT COUNT(DISTINCT e._content_hash)"
                        + " FROM bronze.flight_events e WHERE e.origin = w.origin AND e._event_epoch_s >= w.window_start_s"
                        + " AND e._event_epoch_s < w.window_end_s)").fetchOne(0, Long.class)).as("windows that disagree with the sink").isZero();
            }
        } finally {
            sluice(env, "kafka-dev", "stop");
        }
    }

    private static void until(String what, BooleanSupplier condition) {
        long end = System.nanoTime() + Duration.ofMinutes(5).toNanos();
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
