package dev.sluice.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.app.cli.SluiceCommand;
import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.config.SluiceEnvironment;
import dev.sluice.core.Partition;
import dev.sluice.hotpath.LiveConsumer;
import dev.sluice.warehouse.Warehouse;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hot path end to end on the kafka-dev broker (its own JVM: this module carries Spark): `sluice
 * kafka-dev start`, the batch load of 2001-01-03 (it loads the airports snapshot that Silver's
 * unknown_airport rule, applied to events too, reads), `sluice produce flights --partition
 * 2001-01-02 --shuffle-within PT5M` (16,850 real flights, out of order within 5 minutes) plus one
 * flight from an airport that does not exist, two consumers, then the batch load of 2001-01-02. Its
 * reconciliation step records that the live windows rolled up to the day agree with
 * `gold.airport_daily_delays` (the same flights per airport, the same average delay within 1e-9
 * relative); the test checks the same by its own query, then removes one live flight and sees the
 * reconciliation name the difference.
 */
class HotPathEndToEndIT {

    @TempDir
    Path home;

    private static final Partition DAY = new Partition("2001-01-02");

    @Test
    void liveWindowsOfARealDayAgreeWithTheBatchMart() throws Exception {
        int port = KafkaDevPorts.free();
        java.nio.file.Files.createSymbolicLink(home.resolve("landing"), TestHome.withSampleData().resolve("landing"));
        String url = TestHome.freshH2Url();
        Map<String, String> vars = new HashMap<>(Map.of("SLUICE_HOME", home.toString(), "SLUICE_WAREHOUSE_URL", url,
                "SLUICE_PIPELINES", TestHome.projectRoot().resolve("pipelines").toString(),
                "SLUICE_KAFKA_BOOTSTRAP", "127.0.0.1:" + port,
                "SLUICE_KAFKA_DEV_LIB", TestHome.projectRoot().resolve("kafka-dev/target/lib").toString()));
        SluiceEnvironment env = new SluiceEnvironment(vars);
        java.time.Instant started = java.time.Instant.now();
        try {
            assertThat(sluice(env, "kafka-dev", "start", "--port", Integer.toString(port))).startsWith("0 kafka-dev running");
            PipelineSpec spec = new PipelineSpecLoader(env.interpolator()).load(TestHome.projectRoot().resolve("pipelines/flights.yaml"));
            try (Warehouse w = Warehouse.open(spec.warehouse(), 6)) {
                DSLContext dsl = w.dsl();
                // another day first: the airports snapshot the unknown_airport rule reads
                assertThat(new PipelineRunner(w, home).run(spec, new Partition("2001-01-03"), RunOptions.plain()).status().name()).isEqualTo("COMPLETED");
                assertThat(sluice(env, "produce", "flights", "--partition", DAY.key(), "--shuffle-within", "PT5M"))
                        .startsWith("0 published 16,850 event(s) of flights 2001-01-02 to flights.events");
                try (dev.sluice.hotpath.LivePublisher p = dev.sluice.hotpath.LivePublisher.of(spec.hotPath(), Map.of())) {
                    p.publish("unknown-airport-1", ("{\"date\":\"2001-01-02T10:00:00\",\"delay\":5,\"distance\":300,"
                            + "\"origin\":\"ZZZ\",\"destination\":\"ORD\"}").getBytes(java.nio.charset.StandardCharsets.UTF_8),
                            java.time.Instant.parse("2001-01-02T10:00:00Z").toEpochMilli());
                    p.flush();
                }
                LiveConsumer a = LiveConsumer.of(spec, w, Map.of(), LiveConsumer.Hooks.NONE);
                LiveConsumer b = LiveConsumer.of(spec, w, Map.of(), LiveConsumer.Hooks.NONE);
                CompletableFuture<Void> ra = CompletableFuture.runAsync(a);
                CompletableFuture<Void> rb = CompletableFuture.runAsync(b);
                long end = System.nanoTime() + Duration.ofMinutes(2).toNanos();
                while (dsl.resultQuery("SELECT COALESCE(SUM(next_offset), 0) FROM sluice.hot_offset").fetchOne(0, Long.class) < 16_851) {
                    assertThat(System.nanoTime()).as("consumed in time").isLessThan(end);
                    java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(100).toNanos()); // a polling interval
                }
                a.close();
                b.close();
                ra.get();
                rb.get();
                assertThat(dsl.resultQuery("SELECT COUNT(*) FROM bronze.flight_events WHERE NOT _late").fetchOne(0, Long.class)).isEqualTo(16_850);
                hotPathMetrics(dsl, spec, started);
                assertThat(dsl.resultQuery("SELECT rule_id, source_pos >= 0, reason FROM sluice.quarantine WHERE dataset = 'bronze.flight_events'").fetch())
                        .as("the event from an unknown airport, judged by Silver's rule").singleElement().satisfies(q -> {
                            assertThat(q.get(0)).isEqualTo("unknown_airport");
                            assertThat(q.get(2, String.class)).isEqualTo("origin or destination is not in silver.airports (rule unknown_airport of silver.flights)");
                        });

                assertThat(new PipelineRunner(w, home).run(spec, DAY, RunOptions.plain()).status().name()).isEqualTo("COMPLETED");
                assertThat(dsl.resultQuery("SELECT COUNT(*) FROM sluice.quarantine WHERE partition_key = ?", DAY.key()).fetchOne(0, Long.class))
                        .as("no row of the day is quarantined by Silver, so the counts must agree exactly").isZero();
                var live = dsl.resultQuery("SELECT origin, SUM(flights), SUM(avg_delay_min * flights) / SUM(flights) FROM gold.airport_delays_live"
                        + " WHERE window_start >= TIMESTAMP '2001-01-02 00:00:00' AND window_start < TIMESTAMP '2001-01-03 00:00:00'"
                        + " GROUP BY origin ORDER BY origin").fetch();
                var batch = dsl.resultQuery("SELECT origin, flights, avg_delay_min FROM gold.airport_daily_delays WHERE flight_date = DATE '2001-01-02'"
                        + " ORDER BY origin").fetch();
                assertThat(live).hasSameSizeAs(batch).hasSizeGreaterThan(200);
                for (int i = 0; i < batch.size(); i++) {
                    assertThat(live.get(i).get(0)).isEqualTo(batch.get(i).get(0));
                    assertThat(live.get(i).get(1, Long.class)).as("flights of %s", batch.get(i).get(0)).isEqualTo(batch.get(i).get(1, Long.class));
                    double l = live.get(i).get(2, Double.class);
                    double g = batch.get(i).get(2, Double.class);
                    assertThat(Math.abs(l - g)).as("average delay of %s", batch.get(i).get(0)).isLessThanOrEqualTo(1e-9 * Math.max(1, Math.abs(g)));
                }
                // the run's own reconciliation step recorded the same agreement as a quality result
                var recorded = dsl.resultQuery("SELECT status, metric, element_count, unexpected_count, boundary, message FROM sluice.quality_results"
                        + " WHERE check_id = 'reconcile_airport_daily_delays' AND partition_key = '2001-01-02'").fetch();
                assertThat(recorded).singleElement().satisfies(q -> {
                    assertThat(q.get(0)).isEqualTo("PASSED");
                    assertThat(q.get(1, Double.class)).isZero();
                    assertThat(q.get(2, Long.class)).isEqualTo(batch.size());
                    assertThat(q.get(3, Long.class)).isZero();
                    assertThat(q.get(4)).isEqualTo("SINK");
                    assertThat(q.get(5, String.class)).startsWith("gold.airport_delays_live vs gold.airport_daily_delays partition 2001-01-02: 0 of "
                            + batch.size() + " key(s) differ; live 16,850 flights over " + batch.size() + " key(s), batch 16,850 over " + batch.size());
                });
                // one live flight fewer at ORD: the reconciliation names the difference
                long ord = batch.stream().filter(row -> "ORD".equals(row.get(0))).findFirst().orElseThrow().get(1, Long.class);
                dsl.execute("UPDATE gold.airport_delays_live SET flights = flights - 1 WHERE origin = 'ORD'"
                        + " AND window_start = TIMESTAMP '2001-01-02 12:00:00'");
                var check = dev.sluice.batch.reconcile.Reconciliation.run(dsl, spec, DAY).checks().get(0);
                assertThat(check.status()).isEqualTo(dev.sluice.quality.CheckStatus.WARNED);
                assertThat(check.unexpectedCount()).isOne();
                assertThat(check.unexpectedValues()).singleElement().asString().startsWith(String.format(java.util.Locale.ROOT, "ORD: flights live %,d, batch %,d; avg_delay_min live ", ord - 1, ord));
            }
        } finally {
            sluice(env, "kafka-dev", "stop");
        }
    }

    /**
     * The hot path's metrics once every event is stored, as {@code /actuator/prometheus} serves
     * them: lag 0 on each of the topic's three partitions; the events counted over the partitions
     * equal the sink's rows; a latency for the last batch of each partition between the age of the
     * day's events (2001-01-02: Sluice's producer sets each record's timestamp to the event time)
     * when the test started and their age now.
     */
    private static void hotPathMetrics(DSLContext dsl, PipelineSpec spec, java.time.Instant started) {
        Map<String, Double> m = samples(new dev.sluice.app.serve.WarehouseMetrics(dsl, spec, java.time.Clock.systemUTC()).scrape());
        String group = "group=\"" + spec.hotPath().groupId() + "\",";
        long sinkRows = dsl.resultQuery("SELECT COUNT(*) FROM bronze.flight_events").fetchOne(0, Long.class);
        double events = 0;
        for (int p = 0; p < 3; p++) {
            String tags = group + "partition=\"" + p + "\",topic=\"flights.events\"";
            assertThat(sample(m, "sluice_hotpath_consumer_lag_records{" + tags + "}")).as("lag of partition %d", p).isEqualTo(0.0);
            events += sample(m, "sluice_hotpath_events_total{" + tags + "}");
            String at = group + "partition=\"" + p + "\",stat=\""; // tags in name order
            double max = sample(m, "sluice_hotpath_latency_seconds{" + at + "max\",topic=\"flights.events\"}");
            double p50 = sample(m, "sluice_hotpath_latency_seconds{" + at + "p50\",topic=\"flights.events\"}");
            double oldest = Duration.between(java.time.Instant.parse("2001-01-01T00:00:00Z"), java.time.Instant.now()).toSeconds();
            double youngest = Duration.between(java.time.Instant.parse("2001-01-04T00:00:00Z"), started).toSeconds();
            assertThat(p50).as("median latency of partition %d", p).isBetween(youngest, max);
            assertThat(max).as("greatest latency of partition %d", p).isBetween(p50, oldest);
            assertThat(sample(m, "sluice_hotpath_events_per_second{" + tags + "}")).as("events/s of partition %d", p).isPositive();
            assertThat(sample(m, "sluice_hotpath_last_store_age_seconds{" + tags + "}")).isBetween(0.0,
                    (double) Duration.between(started, java.time.Instant.now()).toSeconds() + 1);
        }
        assertThat(events).as("events stored over the partitions").isEqualTo((double) sinkRows).isEqualTo(16_850.0);
    }

    private static double sample(Map<String, Double> samples, String key) {
        assertThat(samples).as("the scrape").containsKey(key);
        return samples.get(key);
    }

    /** The samples of a Prometheus text exposition: "name{tags}" to value. */
    private static Map<String, Double> samples(String text) {
        Map<String, Double> out = new HashMap<>();
        text.lines().filter(l -> !l.startsWith("#") && !l.isBlank()).forEach(l -> {
            int space = l.lastIndexOf(' ');
            out.put(l.substring(0, space), Double.parseDouble(l.substring(space + 1)));
        });
        return out;
    }

    /** Runs a sluice command in this JVM: "<exit code> <stdout>". */
    private static String sluice(SluiceEnvironment env, String... args) {
        StringWriter out = new StringWriter();
        int code = SluiceCommand.execute(env, new PrintWriter(out, true), new PrintWriter(new StringWriter(), true), args);
        return code + " " + out;
    }
}
