package dev.sluice.hotpath;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.config.SluiceEnvironment;
import dev.sluice.warehouse.Warehouse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * Backpressure on a real broker: the sink stalls inside batch 3 for longer than the consumer's
 * {@code max.poll.interval.ms} (4 s here). The consumer pauses its partitions while the writer is
 * behind and keeps polling, so it never loses its group membership (no revocation, no rebalance);
 * when the sink catches up it resumes and every one of the 20,000 events lands once with exact sums.
 * Before the writer thread and the pause, a stalled write blocked the poll loop and the group
 * evicted the consumer.
 */
class BackpressureIT {

    @TempDir
    Path home;

    private static final int EVENTS = 20_000;
    private static final LocalDateTime T0 = LocalDateTime.parse("2001-01-02T00:00:00");

    @Test
    void aStalledSinkPausesThePartitionsAndTheConsumerKeepsItsMembership() throws Exception {
        EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 2, "flights.events", "flights.events.dlq");
        broker.afterPropertiesSet();
        try {
            String url = "jdbc:h2:file:" + home.resolve("wh-" + UUID.randomUUID()).toAbsolutePath();
            PipelineSpec spec = new PipelineSpecLoader(new SluiceEnvironment(Map.of("SLUICE_HOME", home.toString(), "SLUICE_WAREHOUSE_URL", url,
                    "SLUICE_KAFKA_BOOTSTRAP", broker.getBrokersAsString())).interpolator())
                    .load(EffectivelyOnceIT.projectRoot().resolve("pipelines/flights.yaml"));
            long delaySum = 0;
            try (LivePublisher publisher = LivePublisher.of(spec.hotPath(), Map.of())) {
                for (int i = 0; i < EVENTS; i++) {
                    LocalDateTime at = T0.plusSeconds(i * 4L);
                    long delay = i % 113 - 25;
                    delaySum += delay;
                    String value = "{\"date\":\"" + at + "\",\"delay\":" + delay + ",\"distance\":" + (300 + i % 70)
                            + ",\"origin\":\"" + List.of("ORD", "SFO", "ATL").get(i % 3) + "\",\"destination\":\"LAX\"}";
                    publisher.publish("bp-" + i, value.getBytes(StandardCharsets.UTF_8), at.toInstant(ZoneOffset.UTC).toEpochMilli());
                }
                publisher.flush();
            }
            try (Warehouse w = Warehouse.open(spec.warehouse(), 4)) {
                DSLContext dsl = w.dsl();
                EffectivelyOnceIT.airports(dsl);
                CountDownLatch stalled = new CountDownLatch(1);
                CountDownLatch release = new CountDownLatch(1);
                LiveConsumer consumer = LiveConsumer.of(spec, w, Map.of("max.poll.interval.ms", "4000"), batch -> {
                    if (batch == 3) {
                        stalled.countDown();
                        try {
                            release.await(); // the sink is stuck until the test lets it go
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                });
                CompletableFuture<Void> running = CompletableFuture.runAsync(consumer);
                assertThat(stalled.await(60, TimeUnit.SECONDS)).as("batch 3 reached the sink").isTrue();
                until("the consumer paused its partitions", () -> consumer.pauses() >= 1);
                long handedWhileStalled = dsl.resultQuery("SELECT COALESCE(SUM(next_offset), 0) FROM sluice.hot_offset").fetchOne(0, Long.class);
                // the fault: the sink stays stuck for 1.5 × max.poll.interval.ms (a duration, not a synchronisation)
                java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(6_000).toNanos());
                assertThat(dsl.resultQuery("SELECT COALESCE(SUM(next_offset), 0) FROM sluice.hot_offset").fetchOne(0, Long.class))
                        .as("nothing is stored while the sink is stuck").isEqualTo(handedWhileStalled).isLessThanOrEqualTo(2L * 500);
                release.countDown();
                until("every event is stored", () -> dsl.resultQuery("SELECT COALESCE(SUM(next_offset), 0) FROM sluice.hot_offset")
                        .fetchOne(0, Long.class) == EVENTS);
                consumer.close();
                running.get(30, TimeUnit.SECONDS);
                assertThat(consumer.revocations()).as("the group never took the partitions away: no max.poll.interval.ms expiry").isZero();
                assertThat(consumer.pauses()).isPositive();
                assertThat(consumer.applied()).isEqualTo(EVENTS);
                assertThat(dsl.resultQuery("SELECT COUNT(*), COUNT(DISTINCT _event_id), CAST(SUM(delay) AS BIGINT) FROM bronze.flight_events").fetchOne().intoList())
                        .containsExactly((long) EVENTS, (long) EVENTS, delaySum);
                assertThat(dsl.resultQuery("SELECT SUM(flights) FROM gold.airport_delays_live").fetchOne(0, Long.class)).isEqualTo(EVENTS);
            }
        } finally {
            broker.destroy();
        }
    }

    private static void until(String what, BooleanSupplier condition) {
        long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as(what).isLessThan(end);
            java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(50).toNanos()); // a polling interval
        }
    }
}
