package dev.sluice.hotpath;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.config.SluiceEnvironment;
import dev.sluice.core.SluiceException;
import dev.sluice.warehouse.Warehouse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * Replay: 6,000 flight events published with their event times as record timestamps, consumed;
 * the group is moved back to 01:00 of the day and consumes again. The re-read events change
 * nothing: the sink, the quarantine and the live windows are checksum-identical to before. A replay
 * while a consumer runs is refused.
 */
class ReplayIT {

    @TempDir
    Path home;

    private static final int EVENTS = 6_000;
    private static final LocalDateTime T0 = LocalDateTime.parse("2001-01-02T00:00:00");

    @Test
    void aReplayFromATimeLeavesEverythingIdentical() throws Exception {
        EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 2, "flights.events", "flights.events.dlq");
        broker.afterPropertiesSet();
        try {
            String url = "jdbc:h2:file:" + home.resolve("wh-" + UUID.randomUUID()).toAbsolutePath();
            PipelineSpec spec = new PipelineSpecLoader(new SluiceEnvironment(Map.of("SLUICE_HOME", home.toString(), "SLUICE_WAREHOUSE_URL", url,
                    "SLUICE_KAFKA_BOOTSTRAP", broker.getBrokersAsString())).interpolator())
                    .load(EffectivelyOnceIT.projectRoot().resolve("pipelines/flights.yaml"));
            try (LivePublisher publisher = LivePublisher.of(spec.hotPath(), Map.of())) {
                for (int i = 0; i < EVENTS; i++) {
                    LocalDateTime at = T0.plusSeconds(i * 10L);
                    String value = "{\"date\":\"" + at + "\",\"delay\":" + (i % 97 - 20) + ",\"distance\":" + (200 + i % 50)
                            + ",\"origin\":\"" + List.of("ORD", "SFO", "ATL").get(i % 3) + "\",\"destination\":\"LAX\"}";
                    publisher.publish("e-" + i, value.getBytes(StandardCharsets.UTF_8), at.toInstant(ZoneOffset.UTC).toEpochMilli());
                }
                publisher.flush();
            }
            try (Warehouse w = Warehouse.open(spec.warehouse(), 4)) {
                DSLContext dsl = w.dsl();
                EffectivelyOnceIT.airports(dsl);
                consumeAll(spec, w, dsl);
                String before = checksum(dsl);
                assertThat(dsl.resultQuery("SELECT COUNT(*) FROM bronze.flight_events").fetchOne(0, Long.class)).isEqualTo(EVENTS);

                LiveConsumer running = LiveConsumer.of(spec, w, Map.of(), LiveConsumer.Hooks.NONE);
                CompletableFuture<Void> r = CompletableFuture.runAsync(running);
                long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                SluiceException refused = null;
                while (refused == null && System.nanoTime() < end) {
                    try {
                        LiveReplay.fromTime(spec, w, Instant.parse("2001-01-02T01:00:00Z"), Map.of());
                    } catch (SluiceException e) {
                        refused = e; // once the consumer has joined the group
                    }
                    java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(100).toNanos()); // a polling interval
                }
                assertThat(refused).isNotNull();
                assertThat(refused.getMessage()).contains("has 1 active member(s): stop `sluice hot-path` first");
                running.close();
                r.get();

                Map<Integer, Long> moved = LiveReplay.fromTime(spec, w, Instant.parse("2001-01-02T01:00:00Z"), Map.of());
                // event 360 is the first at 01:00; the two partitions hold the rest
                assertThat(moved).hasSize(2);
                long reRead = dsl.resultQuery("SELECT SUM(next_offset) FROM sluice.hot_offset").fetchOne(0, Long.class);
                assertThat(reRead).isEqualTo(moved.values().stream().mapToLong(Long::longValue).sum());
                assertThat(reRead).as("the positions now sit just after the 360 records before 01:00").isEqualTo(360);

                LiveConsumer again = consumeAll(spec, w, dsl);
                assertThat(again.applied()).as("the replayed records were read again").isEqualTo(EVENTS - 360);
                assertThat(checksum(dsl)).isEqualTo(before);
            }
        } finally {
            broker.destroy();
        }
    }

    private static LiveConsumer consumeAll(PipelineSpec spec, Warehouse w, DSLContext dsl) throws Exception {
        LiveConsumer c = LiveConsumer.of(spec, w, Map.of(), LiveConsumer.Hooks.NONE);
        CompletableFuture<Void> f = CompletableFuture.runAsync(c);
        long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (dsl.resultQuery("SELECT COALESCE(SUM(next_offset), 0) FROM sluice.hot_offset").fetchOne(0, Long.class) < EVENTS) {
            if (System.nanoTime() > end) {
                throw new AssertionError("not consumed in time");
            }
            java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(50).toNanos()); // a polling interval
        }
        c.close();
        f.get();
        return c;
    }

    /** Sink, quarantine and windows as one text: counts, sums and every window row. */
    private static String checksum(DSLContext dsl) {
        return dsl.resultQuery("SELECT COUNT(*), SUM(delay), COUNT(DISTINCT _content_hash), SUM(CASE WHEN _late THEN 1 ELSE 0 END)"
                + " FROM bronze.flight_events").fetchOne().intoList()
                + " q=" + dsl.resultQuery("SELECT COUNT(*) FROM sluice.quarantine").fetchOne(0, Long.class)
                + " w=" + dsl.resultQuery("SELECT origin || ' ' || window_start_s || ' ' || flights || ' ' || avg_delay_min || ' ' || max_delay_min"
                        + " FROM gold.airport_delays_live ORDER BY origin, window_start_s").fetch(0, String.class);
    }
}
