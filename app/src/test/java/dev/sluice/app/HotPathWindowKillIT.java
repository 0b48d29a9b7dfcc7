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
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
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
 * The hot path on PostgreSQL (embedded, real binaries: the sink's array insert and the window
 * upserts) killed (SIGKILL) at {@code hot-batch:windows-merged}, inside a batch's transaction with
 * its events in the sink and its window deltas merged into the window rows, its offsets not yet
 * stored: twice in a row (the first batch of one process, the third of the next), then a last
 * consumer in this JVM reads to the end. 10,000 flight events, every 50th an exact duplicate of the
 * one before under its own id (the flights window counts each content once), and 8 poison records.
 * Afterwards every event is in the sink once; each partition's stored next offset is one past the
 * last record the sink and the quarantine hold of it, and its stored event count is what the sink
 * holds of it; every window of {@code gold.airport_delays_live} equals its count of distinct
 * contents, its average and its maximum delay computed over the sink's events that are not late.
 *
 * <p>Why the kill point matters: were the window merge committed apart from the batch (its own
 * transaction, or after the commit), a kill there would leave the merged deltas in the window rows
 * while the batch's events and offsets roll back; the next consumer reads the batch again and
 * merges its deltas a second time, so those windows would count more than the sink holds and the
 * last assertion fails. Only a merge in the batch's transaction rolls back with it.
 *
 * <p>Wall time about 150 s on a 2-core machine, most of it two waits of Kafka's default session
 * timeout (45 s): a consumer joining the group waits until the broker drops the killed member.
 */
class HotPathWindowKillIT {

    private static final int EVENTS = 10_000;
    private static final int POISON = 8;
    private static final LocalDateTime T0 = LocalDateTime.parse("2001-01-02T00:00:00");

    @TempDir
    Path home;

    @Test
    void killsAfterTheWindowMergeLoseAndDuplicateNothing() throws Exception {
        int port = KafkaDevPorts.free();
        try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().start()) {
            Map<String, String> vars = new HashMap<>(Map.of("SLUICE_HOME", home.toString(),
                    "SLUICE_WAREHOUSE_URL", postgres.getJdbcUrl("postgres", "postgres"), "SLUICE_WAREHOUSE_USER", "postgres",
                    "SLUICE_PIPELINES", TestHome.projectRoot().resolve("pipelines").toString(),
                    "SLUICE_KAFKA_BOOTSTRAP", "127.0.0.1:" + port, "SLUICE_FLIGHTS_TOPIC", "windowkill.events",
                    "SLUICE_FLIGHTS_LATENESS", "PT200H",
                    "SLUICE_KAFKA_DEV_LIB", TestHome.projectRoot().resolve("kafka-dev/target/lib").toString()));
            SluiceEnvironment env = new SluiceEnvironment(vars);
            try {
                assertThat(sluice(env, "kafka-dev", "start", "--port", Integer.toString(port))).startsWith("0 kafka-dev running");
                PipelineSpec spec = new PipelineSpecLoader(env.interpolator()).load(TestHome.projectRoot().resolve("pipelines/flights.yaml"));
                publish(spec);
                try (Warehouse w = Warehouse.open(spec.warehouse(), 4)) {
                    DSLContext dsl = w.dsl();
                    // silver.airports as a batch load leaves it: Silver's unknown_airport rule judges the events too
                    dsl.execute("CREATE SCHEMA IF NOT EXISTS silver");
                    dsl.execute("CREATE TABLE silver.airports (iata VARCHAR(8) PRIMARY KEY)");
                    dsl.execute("INSERT INTO silver.airports (iata) VALUES ('ORD'), ('SFO'), ('ATL'), ('DEN'), ('LAX')");
                }
                for (String point : List.of("hot-batch:windows-merged#1", "hot-batch:windows-merged#3")) {
                    FaultPointKill.Reached r = FaultPointKill.killAtOrEnd(point, vars, 5, "hot-path", "flights");
                    assertThat(r.killed()).as("the hot path reached %s; its last lines:\n%s", point, r.tail()).isTrue();
                }
                try (Warehouse w = Warehouse.open(spec.warehouse(), 4)) {
                    DSLContext dsl = w.dsl();
                    long afterKills = dsl.resultQuery("SELECT COUNT(*) FROM bronze.flight_events").fetchOne(0, Long.class);
                    assertThat(afterKills).as("the second killed consumer stored two batches, not all").isPositive().isLessThan(EVENTS);
                    LiveConsumer last = LiveConsumer.of(spec, w, Map.of(), LiveConsumer.Hooks.NONE);
                    CompletableFuture<Void> running = CompletableFuture.runAsync(last);
                    until("every event is stored after the kills", () -> dsl.resultQuery("SELECT COUNT(*) FROM bronze.flight_events").fetchOne(0, Long.class) >= EVENTS
                            && dsl.resultQuery("SELECT COUNT(*) FROM sluice.quarantine").fetchOne(0, Long.class) >= POISON);
                    last.close();
                    running.get(60, TimeUnit.SECONDS);
                    check(dsl);
                }
            } finally {
                sluice(env, "kafka-dev", "stop");
            }
        }
    }

    /** EVENTS events of the flights contract at 2 s steps over four origins, every 50th a duplicate of the one before under its own id, POISON poison records. */
    private static void publish(PipelineSpec spec) {
        try (LivePublisher publisher = LivePublisher.of(spec.hotPath(), Map.of())) {
            String previous = null;
            for (int i = 0; i < EVENTS; i++) {
                LocalDateTime at = T0.plusSeconds(i * 2L);
                String value = "{\"date\":\"" + at + "\",\"delay\":" + (i % 211 - 40) + ",\"distance\":" + (150 + i % 1_300)
                        + ",\"origin\":\"" + List.of("ORD", "SFO", "ATL", "DEN").get(i % 4) + "\",\"destination\":\"LAX\"}";
                if (i % 50 == 49) {
                    value = previous; // an exact duplicate under its own id
                }
                publisher.publish("k-" + i, value.getBytes(StandardCharsets.UTF_8), at.toInstant(ZoneOffset.UTC).toEpochMilli());
                previous = value;
                if (i % (EVENTS / POISON) == 7) {
                    publisher.publish("bad-" + i, "{not json".getBytes(StandardCharsets.UTF_8), at.toInstant(ZoneOffset.UTC).toEpochMilli());
                }
            }
            publisher.flush();
        }
    }

    private static void check(DSLContext dsl) {
        assertThat(dsl.resultQuery("SELECT COUNT(*), COUNT(DISTINCT _event_id), COUNT(*) FILTER (WHERE _late) FROM bronze.flight_events").fetchOne().intoList())
                .as("events, distinct ids, late events").containsExactly((long) EVENTS, (long) EVENTS, 0L);
        assertThat(dsl.resultQuery("SELECT COUNT(*), COUNT(DISTINCT source || '@' || source_pos) FROM sluice.quarantine").fetchOne().intoList())
                .as("poison records quarantined, each (topic partition, offset) once").containsExactly((long) POISON, (long) POISON);
        assertThat(dsl.resultQuery("SELECT COUNT(*) FROM sluice.hot_offset o WHERE o.events_stored <> (SELECT COUNT(*) FROM bronze.flight_events e"
                + " WHERE e._source = 'kafka:' || o.topic || '/' || o.kafka_partition) OR o.next_offset <> 1 + (SELECT MAX(p) FROM ("
                + "SELECT e._source_pos AS p FROM bronze.flight_events e WHERE e._source = 'kafka:' || o.topic || '/' || o.kafka_partition"
                + " UNION ALL SELECT q.source_pos FROM sluice.quarantine q WHERE q.source = 'kafka:' || o.topic || '/' || o.kafka_partition) x)")
                .fetchOne(0, Long.class)).as("partitions whose stored offset or event count disagrees with the sink").isZero();
        assertThat(dsl.resultQuery("SELECT CAST(SUM(events_stored) AS BIGINT) FROM sluice.hot_offset").fetchOne(0, Long.class))
                .as("events counted as stored by the partitions' health").isEqualTo(EVENTS);
        assertThat(dsl.resultQuery("SELECT CAST(SUM(flights) AS BIGINT), COUNT(*) FROM gold.airport_delays_live").fetchOne().intoList())
                .as("flights in the live windows (exact duplicates once), windows (4 origins, 10,000 events 2 s apart: 6 hours each)")
                .containsExactly((long) (EVENTS - EVENTS / 50), 24L);
        assertThat(dsl.resultQuery("SELECT COUNT(*) FROM gold.airport_delays_live w JOIN (SELECT d.origin, d.s, COUNT(*) AS n, AVG(d.delay) AS a,"
                + " MAX(d.delay) AS m FROM (SELECT DISTINCT e._content_hash, e.origin, e.delay, e._event_epoch_s / 3600 * 3600 AS s"
                + " FROM bronze.flight_events e WHERE NOT e._late) d GROUP BY d.origin, d.s) c ON c.origin = w.origin AND c.s = w.window_start_s"
                + " WHERE w.flights = c.n AND w.max_delay_min = c.m AND ABS(w.avg_delay_min - c.a) < 1e-9").fetchOne(0, Long.class))
                .as("windows equal to the count, average and maximum over the sink's events").isEqualTo(24L);
    }

    private static void until(String what, BooleanSupplier condition) {
        long end = System.nanoTime() + Duration.ofMinutes(3).toNanos();
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
