package dev.sluice.hotpath;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.config.SluiceEnvironment;
import dev.sluice.warehouse.Warehouse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * The hot path on a real in-process KRaft broker: 100,000 flight events (every 50th an exact
 * duplicate of the one before under its own id) and 30 poison records across three partitions.
 * The first consumer dies inside a batch's transaction (after writing, before committing), a second
 * takes over from the offsets in the warehouse, a third joins (a rebalance): every valid event is in
 * the sink once, with the input's exact sums, every poison record once in the quarantine and in the
 * dead-letter topic with its headers, and the stored offsets are the partitions' end offsets.
 */
class EffectivelyOnceIT {

    private static final int EVENTS = 100_000;
    private static final int POISON = 30;
    private static final String TOPIC = "flights.events";
    private static EmbeddedKafkaKraftBroker broker;

    @TempDir
    Path home;

    @BeforeAll
    static void startBroker() {
        broker = new EmbeddedKafkaKraftBroker(1, 3, TOPIC, TOPIC + ".dlq");
        broker.afterPropertiesSet();
    }

    @AfterAll
    static void stopBroker() {
        broker.destroy();
    }

    /**
     * {@code silver.airports} as the batch load leaves it, with the airports these tests use: the
     * reference table Silver's unknown_airport rule reads (the events are judged by it too).
     */
    static void airports(DSLContext dsl) {
        dsl.execute("CREATE SCHEMA IF NOT EXISTS silver");
        dsl.execute("CREATE TABLE IF NOT EXISTS silver.airports (iata VARCHAR(8) PRIMARY KEY)");
        dsl.execute("INSERT INTO silver.airports (iata) VALUES ('ORD'), ('SFO'), ('LAX'), ('ATL')");
    }

    static Path projectRoot() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("pipelines/flights.yaml"))) {
                return d;
            }
        }
        throw new IllegalStateException("no project root");
    }

    @Test
    void aKilledConsumerAndARebalanceLoseNothingAndDuplicateNothing() throws Exception {
        final String url = "jdbc:h2:file:" + home.resolve("wh-" + UUID.randomUUID()).toAbsolutePath();
        PipelineSpec spec = new PipelineSpecLoader(new SluiceEnvironment(Map.of("SLUICE_HOME", home.toString(),
                "SLUICE_WAREHOUSE_URL", url, "SLUICE_KAFKA_BOOTSTRAP", broker.getBrokersAsString(),
                "SLUICE_FLIGHTS_LATENESS", "PT200H")).interpolator())
                .load(projectRoot().resolve("pipelines/flights.yaml"));
        long delaySum = 0;
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of("bootstrap.servers", broker.getBrokersAsString(),
                "key.serializer", StringSerializer.class.getName(), "value.serializer", StringSerializer.class.getName(),
                "linger.ms", "20", "acks", "all"))) {
            LocalDateTime t0 = LocalDateTime.parse("2001-01-02T06:00:00");
            String previous = null;
            for (int i = 0; i < EVENTS; i++) {
                long delay = (i * 7L) % 181 - 30;
                String value = i % 50 == 49 ? previous : "{\"date\":\"" + t0.plusSeconds(i * 3L) + "\",\"delay\":" + delay
                        + ",\"distance\":" + (100 + i % 900) + ",\"origin\":\"" + (i % 2 == 0 ? "ORD" : "SFO")
                        + "\",\"destination\":\"LAX\"}";
                if (i % 50 == 49) {
                    delay = (((i - 1) * 7L) % 181) - 30;
                }
                delaySum += delay;
                var sent = producer.send(new ProducerRecord<>(TOPIC, "evt-" + i, value)); // flushed below; a failure fails the flush
                previous = value;
                if (i % (EVENTS / POISON) == 17) {
                    int p = i / (EVENTS / POISON);
                    String bad = switch (p % 3) {
                        case 0 -> "{not json";
                        case 1 -> "{\"date\":\"2001-01-02T07:00:00\",\"delay\":5,\"distance\":10,\"destination\":\"LAX\"}";
                        default -> "{\"date\":\"2001-01-02T07:00:00\",\"delay\":\"late\",\"distance\":10,\"origin\":\"ORD\",\"destination\":\"LAX\"}";
                    };
                    var poison = producer.send(new ProducerRecord<>(TOPIC, "bad-" + p, bad));
                }
            }
            producer.flush();
        }

        try (Warehouse w = Warehouse.open(spec.warehouse(), 6)) {
            DSLContext dsl = w.dsl();
            airports(dsl);
            String count = "SELECT COUNT(*) FROM bronze.flight_events";
            // the first consumer dies inside its fourth batch's transaction: the batch rolls back
            LiveConsumer first = LiveConsumer.of(spec, w, Map.of(), batch -> {
                if (batch == 4) {
                    throw new IllegalStateException("killed inside batch 4");
                }
            });
            CompletableFuture<Void> died = CompletableFuture.runAsync(first);
            assertThat(died).failsWithin(Duration.ofSeconds(60)).withThrowableThat().withMessageContaining("killed inside batch 4");
            long afterCrash = dsl.resultQuery(count).fetchOne(0, Long.class);
            assertThat(afterCrash).as("three batches committed, the fourth rolled back").isPositive().isLessThan(EVENTS);

            LiveConsumer second = LiveConsumer.of(spec, w, Map.of(), LiveConsumer.Hooks.NONE);
            CompletableFuture<Void> two = CompletableFuture.runAsync(second);
            until("the second consumer makes progress", () -> dsl.resultQuery(count).fetchOne(0, Long.class) > afterCrash + 5_000);
            LiveConsumer third = LiveConsumer.of(spec, w, Map.of(), LiveConsumer.Hooks.NONE);
            CompletableFuture<Void> three = CompletableFuture.runAsync(third);
            until("every event is in the sink (" + EVENTS + " events, " + POISON + " quarantined, the end offsets stored); now: "
                    + "see the state below", () -> state(dsl).isEmpty() ? false : dsl.resultQuery(count).fetchOne(0, Long.class) == EVENTS
                    && dsl.resultQuery("SELECT COUNT(*) FROM sluice.quarantine").fetchOne(0, Long.class) == POISON
                    && endOffsetsStored(dsl, spec));
            second.close();
            third.close();
            two.get();
            three.get();
            assertThat(third.applied()).as("the third consumer took partitions over (a rebalance)").isPositive();

            assertThat(dsl.resultQuery("SELECT COUNT(DISTINCT _event_id) FROM bronze.flight_events").fetchOne(0, Long.class)).isEqualTo(EVENTS);
            // the partitions' health: each stored event counted once through the rolled-back batch and the rebalance, every
            // partition read to its end (lag 0), a latency for the last batch of each
            assertThat(dsl.resultQuery("SELECT SUM(events_stored) FROM sluice.hot_offset").fetchOne(0, Long.class)).isEqualTo(EVENTS);
            assertThat(dsl.resultQuery("SELECT lag_records FROM sluice.hot_offset").fetch(0, Long.class)).hasSize(3).containsOnly(0L);
            assertThat(dsl.resultQuery("SELECT COUNT(*) FROM sluice.hot_offset WHERE latency_p50_ms BETWEEN 0 AND latency_max_ms")
                    .fetchOne(0, Long.class)).isEqualTo(3);
            assertThat(dsl.resultQuery("SELECT SUM(delay) FROM bronze.flight_events").fetchOne(0, Long.class)).isEqualTo(delaySum);
            assertThat(dsl.resultQuery("SELECT COUNT(DISTINCT _content_hash) FROM bronze.flight_events").fetchOne(0, Long.class))
                    .as("exact duplicates share a content hash").isEqualTo(EVENTS - EVENTS / 50);
            // the live windows, recomputed batch by batch through the crash and the rebalance, equal one pass over the events
            assertThat(dsl.resultQuery("SELECT SUM(flights) FROM gold.airport_delays_live").fetchOne(0, Long.class)).isEqualTo(EVENTS - EVENTS / 50);
            assertThat(dsl.resultQuery("SELECT COUNT(*) FROM gold.airport_delays_live w WHERE w.flights <> (SELECT COUNT(DISTINCT e._content_hash)"
                    + " FROM bronze.flight_events e WHERE e.origin = w.origin AND e._event_epoch_s >= w.window_start_s"
                    + " AND e._event_epoch_s < w.window_end_s)").fetchOne(0, Long.class)).isZero();
            assertThat(dsl.resultQuery("SELECT rule_id || ' ' || COUNT(*) FROM sluice.quarantine GROUP BY rule_id ORDER BY 1")
                    .fetch(0, String.class)).containsExactly("contract_violation 20", "malformed_json 10");
            assertThat(dsl.resultQuery("SELECT reason FROM sluice.quarantine WHERE record_json LIKE '%late%'").fetch(0, String.class))
                    .allSatisfy(r -> assertThat(r).isEqualTo("the event breaks contract flights.v1: delay: \"late\" is not a long"));
        }
        // a contract fix: origin becomes nullable, so the 10 events without one now pass; the others still fail
        Path fixed = Files.createDirectories(home.resolve("fixed/contracts")).getParent();
        Files.writeString(fixed.resolve("contracts/flights.v1.yaml"), Files.readString(projectRoot().resolve("pipelines/contracts/flights.v1.yaml"))
                .replaceFirst("(\\{name: origin, type: string, nullable: )false", "$1true"));
        Files.copy(projectRoot().resolve("pipelines/contracts/airports.v1.yaml"), fixed.resolve("contracts/airports.v1.yaml"));
        // and Silver's rules, which the events pass too, let a flight without an origin through
        String rule = "NOT EXISTS (SELECT 1 FROM silver.airports ap WHERE ap.iata = origin)";
        String flights = Files.readString(projectRoot().resolve("pipelines/flights.yaml"));
        assertThat(flights).contains(" OR origin IS NULL", rule);
        Files.writeString(fixed.resolve("flights.yaml"), flights.replace(" OR origin IS NULL", "")
                .replace(rule, "(origin IS NOT NULL AND " + rule + ")"));
        PipelineSpec relaxed = new PipelineSpecLoader(new SluiceEnvironment(Map.of("SLUICE_HOME", home.toString(),
                "SLUICE_WAREHOUSE_URL", url, "SLUICE_KAFKA_BOOTSTRAP", broker.getBrokersAsString(),
                "SLUICE_FLIGHTS_LATENESS", "PT200H")).interpolator()).load(fixed.resolve("flights.yaml"));
        assertThat(relaxed.source("flights").orElseThrow().contract().columns().stream().filter(c -> c.name().equals("origin")).findFirst()
                .orElseThrow().nullable()).isTrue();
        try (Warehouse w = Warehouse.open(relaxed.warehouse(), 2)) {
            LiveQuarantine.Result r = LiveQuarantine.reprocess(relaxed, w);
            assertThat(r.reinjected()).isEqualTo(10);
            assertThat(r.stillFailingCount()).isEqualTo(20);
            assertThat(w.dsl().resultQuery("SELECT COUNT(*) FROM bronze.flight_events").fetchOne(0, Long.class)).isEqualTo(EVENTS + 10);
            assertThat(w.dsl().resultQuery("SELECT status || ' ' || COUNT(*) FROM sluice.quarantine GROUP BY status ORDER BY 1")
                    .fetch(0, String.class)).containsExactly("OPEN 20", "REPROCESSED 10");
            assertThat(LiveQuarantine.reprocess(relaxed, w).reinjected()).as("a second reprocess finds nothing new").isZero();
            assertThat(w.dsl().resultQuery("SELECT COUNT(*) FROM bronze.flight_events").fetchOne(0, Long.class)).isEqualTo(EVENTS + 10);
        }
        List<ConsumerRecord<String, String>> dlq = deadLetters();
        assertThat(dlq).hasSize(POISON);
        assertThat(dlq).allSatisfy(r -> {
            assertThat(header(r, "sluice.original.topic")).isEqualTo(TOPIC);
            assertThat(header(r, "sluice.original.offset")).matches("\\d+");
            assertThat(header(r, "sluice.error.class")).isIn("malformed_json", "contract_violation");
            assertThat(header(r, "sluice.error.message")).isNotBlank();
        });
    }

    /** The sink, quarantine and stored offsets now, for a timeout's message. */
    private static String state(DSLContext dsl) {
        String s = "sink " + dsl.resultQuery("SELECT COUNT(*) FROM bronze.flight_events").fetchOne(0, Long.class)
                + ", quarantine " + dsl.resultQuery("SELECT COUNT(*) FROM sluice.quarantine").fetchOne(0, Long.class)
                + ", offsets " + dsl.resultQuery("SELECT kafka_partition || '=' || next_offset FROM sluice.hot_offset ORDER BY 1").fetch(0, String.class);
        lastState = s;
        return s;
    }

    private static volatile String lastState = "";

    private static boolean endOffsetsStored(DSLContext dsl, PipelineSpec spec) {
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(Map.of("bootstrap.servers", broker.getBrokersAsString(),
                "key.deserializer", StringDeserializer.class.getName(), "value.deserializer", StringDeserializer.class.getName()))) {
            List<TopicPartition> tps = List.of(new TopicPartition(TOPIC, 0), new TopicPartition(TOPIC, 1), new TopicPartition(TOPIC, 2));
            Map<TopicPartition, Long> end = c.endOffsets(tps);
            Map<Integer, Long> stored = new HashMap<>();
            dsl.resultQuery("SELECT kafka_partition, next_offset FROM sluice.hot_offset WHERE group_id = ?", spec.hotPath().groupId())
                    .forEach(r -> stored.put(r.get(0, Integer.class), r.get(1, Long.class)));
            return tps.stream().allMatch(tp -> end.get(tp).equals(stored.get(tp.partition())));
        }
    }

    private static List<ConsumerRecord<String, String>> deadLetters() {
        List<ConsumerRecord<String, String>> out = new ArrayList<>();
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(Map.of("bootstrap.servers", broker.getBrokersAsString(),
                "group.id", "dlq-reader-" + UUID.randomUUID(), "auto.offset.reset", "earliest",
                "key.deserializer", StringDeserializer.class.getName(), "value.deserializer", StringDeserializer.class.getName()))) {
            c.subscribe(List.of(TOPIC + ".dlq"));
            long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (out.size() < POISON && System.nanoTime() < end) {
                c.poll(Duration.ofMillis(200)).forEach(out::add);
            }
        }
        return out;
    }

    private static String header(ConsumerRecord<String, String> r, String name) {
        var h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    private static void until(String what, BooleanSupplier condition) {
        long end = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("timed out waiting until " + what + ": " + lastState);
            }
            java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(100).toNanos()); // a polling interval, not a synchronisation
        }
    }
}
