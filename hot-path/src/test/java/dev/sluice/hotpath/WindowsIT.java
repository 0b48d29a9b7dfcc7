package dev.sluice.hotpath;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.config.SluiceEnvironment;
import dev.sluice.warehouse.Warehouse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * The three kinds of window, with an allowed lateness of 60 s, on events that arrive in three
 * rounds (one partition, so arrival order is the order sent): in round 2 an event at 03:00 moves
 * the watermark to 02:00; in round 3 an event at 02:30 (late, within the lateness) updates its
 * windows and one at 01:30 (beyond it) is kept in the sink, quarantined as too_late, and counted in
 * no window. Expected values worked out by hand from the definitions.
 */
class WindowsIT {

    @TempDir
    Path home;

    private static final LocalDateTime T0 = LocalDateTime.parse("2001-01-01T00:00:00");

    @Test
    void tumblingSlidingAndSessionWindowsWithLateEvents() throws Exception {
        EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 1, "ticks", "ticks.dlq");
        broker.afterPropertiesSet();
        try {
            Files.createDirectories(home.resolve("contracts"));
            Files.writeString(home.resolve("contracts/ticks.v1.yaml"), "contract: ticks\nversion: 1\ncolumns:\n"
                    + "  - {name: at, type: timestamp, nullable: false}\n  - {name: code, type: string, nullable: false}\n"
                    + "  - {name: amount, type: long, nullable: false}\n");
            Path specFile = Files.writeString(home.resolve("ticks.yaml"), """
                    pipeline: ticks
                    warehouse: {url: "${SLUICE_WAREHOUSE_URL}", user: sa, password: ""}
                    sources:
                      - {name: ticks, format: csv, path: "${SLUICE_HOME}/landing/ticks.csv", partitioned: false, contract: contracts/ticks.v1.yaml}
                    layers:
                      bronze: [{table: bronze.ticks_raw, source: ticks}]
                      silver: [{table: silver.ticks, input: bronze.ticks_raw, partition: none, key: [code], columns: {code: string}, sql: "SELECT DISTINCT code FROM {input} t"}]
                      gold: [{table: gold.codes, input: silver.ticks, partition: none, key: [code], columns: {code: string}, sql: "SELECT code FROM {input} s"}]
                    hot_path:
                      topic: ticks
                      bootstrap_servers: ${SLUICE_KAFKA_BOOTSTRAP}
                      source: ticks
                      event_time: at
                      sink: bronze.tick_events
                      allowed_lateness: PT60S
                      windows:
                        - {table: gold.ticks_tumbling, kind: tumbling, size: PT60S, group_by: [code], measures: {n: count, total: sum(amount)}}
                        - {table: gold.ticks_sliding, kind: sliding, size: PT60S, slide: PT30S, group_by: [code], measures: {n: count, total: sum(amount)}}
                        - {table: gold.ticks_session, kind: session, gap: PT30S, group_by: [code], measures: {n: count, total: sum(amount)}}
                    """);
            String url = "jdbc:h2:file:" + home.resolve("wh-" + UUID.randomUUID()).toAbsolutePath();
            PipelineSpec spec = new PipelineSpecLoader(new SluiceEnvironment(Map.of("SLUICE_HOME", home.toString(), "SLUICE_WAREHOUSE_URL", url,
                    "SLUICE_KAFKA_BOOTSTRAP", broker.getBrokersAsString())).interpolator()).load(specFile);
            try (Warehouse w = Warehouse.open(spec.warehouse(), 4);
                    KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of("bootstrap.servers", broker.getBrokersAsString(),
                            "key.serializer", StringSerializer.class.getName(), "value.serializer", StringSerializer.class.getName()))) {
                DSLContext dsl = w.dsl();
                LiveConsumer consumer = LiveConsumer.of(spec, w, Map.of(), LiveConsumer.Hooks.NONE);
                CompletableFuture<Void> running = CompletableFuture.runAsync(consumer);
                send(producer, List.of("v1 A 10 1", "v2 A 50 2", "v3 A 70 3", "v10 B 20 10"));
                consumedUpTo(dsl, 4);
                send(producer, List.of("v4 A 180 4"));
                consumedUpTo(dsl, 5);
                send(producer, List.of("v5 A 150 5", "v6 A 90 6"));
                consumedUpTo(dsl, 7);
                consumer.close();
                running.get();

                assertThat(rows(dsl, "gold.ticks_tumbling")).containsExactly(
                        "A 0-60 n=2 total=3", "A 60-120 n=1 total=3", "A 120-180 n=1 total=5", "A 180-240 n=1 total=4", "B 0-60 n=1 total=10");
                assertThat(rows(dsl, "gold.ticks_sliding")).containsExactly(
                        "A -30-30 n=1 total=1", "A 0-60 n=2 total=3", "A 30-90 n=2 total=5", "A 60-120 n=1 total=3",
                        "A 120-180 n=1 total=5", "A 150-210 n=2 total=9", "A 180-240 n=1 total=4",
                        "B -30-30 n=1 total=10", "B 0-60 n=1 total=10");
                assertThat(rows(dsl, "gold.ticks_session")).containsExactly(
                        "A 10-40 n=1 total=1", "A 50-100 n=2 total=5", "A 150-180 n=1 total=5", "A 180-210 n=1 total=4", "B 20-50 n=1 total=10");
                assertThat(dsl.resultQuery("SELECT _event_id || ' ' || _late FROM bronze.tick_events ORDER BY _event_id").fetch(0, String.class))
                        .containsExactly("v1 FALSE", "v10 FALSE", "v2 FALSE", "v3 FALSE", "v4 FALSE", "v5 FALSE", "v6 TRUE");
                assertThat(dsl.resultQuery("SELECT rule_id || ': ' || reason FROM sluice.quarantine").fetch(0, String.class)).containsExactly(
                        "too_late: event time 2001-01-01T00:01:30Z is before the watermark 2001-01-01T00:02:00Z (the newest event time seen"
                                + " minus the allowed lateness PT1M): kept in bronze.tick_events, left out of the windows");

                // reprocessing the quarantine is the decision to count the late event: its windows now do, once
                LiveQuarantine.Result r = LiveQuarantine.reprocess(spec, w);
                assertThat(r.reinjected()).isEqualTo(1);
                assertThat(r.counted()).isEqualTo(1);
                assertThat(rows(dsl, "gold.ticks_tumbling")).contains("A 60-120 n=2 total=9");
                assertThat(rows(dsl, "gold.ticks_session")).containsExactly(
                        "A 10-40 n=1 total=1", "A 50-120 n=3 total=11", "A 150-180 n=1 total=5", "A 180-210 n=1 total=4", "B 20-50 n=1 total=10");
                assertThat(dsl.resultQuery("SELECT status FROM sluice.quarantine").fetch(0, String.class)).containsExactly("REPROCESSED");
                assertThat(LiveQuarantine.reprocess(spec, w).reinjected()).as("idempotent").isZero();
                assertThat(rows(dsl, "gold.ticks_tumbling")).contains("A 60-120 n=2 total=9");
            }
        } finally {
            broker.destroy();
        }
    }

    /** Sends "id code seconds amount" events. */
    private static void send(KafkaProducer<String, String> producer, List<String> events) throws Exception {
        for (String e : events) {
            String[] f = e.split(" ");
            producer.send(new ProducerRecord<>("ticks", f[0], "{\"at\":\"" + T0.plusSeconds(Long.parseLong(f[2])) + "\",\"code\":\"" + f[1]
                    + "\",\"amount\":" + f[3] + "}")).get();
        }
    }

    private static void consumedUpTo(DSLContext dsl, long offset) {
        long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            Long next = dsl.resultQuery("SELECT MAX(next_offset) FROM sluice.hot_offset").fetchOne(0, Long.class);
            if (next != null && next >= offset) {
                return;
            }
            if (System.nanoTime() > end) {
                throw new AssertionError("the consumer did not reach offset " + offset + " (at " + next + ")");
            }
            java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(50).toNanos()); // a polling interval
        }
    }

    /** "code start-end n=… total=…" with start/end in seconds after T0, ordered. */
    private static List<String> rows(DSLContext dsl, String table) {
        long t0 = T0.toEpochSecond(java.time.ZoneOffset.UTC);
        return dsl.resultQuery("SELECT code, window_start_s - " + t0 + ", window_end_s - " + t0 + ", n, total FROM " + table
                + " ORDER BY code, window_start_s").fetch().map(r -> r.get(0) + " " + r.get(1) + "-" + r.get(2) + " n=" + r.get(3)
                        + " total=" + r.get(4));
    }
}
