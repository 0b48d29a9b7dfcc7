package dev.sluice.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.config.SluiceEnvironment;
import dev.sluice.hotpath.KafkaDevProcess;
import dev.sluice.hotpath.LiveConsumer;
import dev.sluice.hotpath.LivePublisher;
import dev.sluice.hotpath.RawConsumer;
import dev.sluice.warehouse.Warehouse;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The hot path against its baseline, on one kafka-dev broker (a real KRaft broker in its own JVM,
 * 3 partitions per topic) and an H2 file warehouse, with the flights spec as shipped (event
 * contract, Silver's rules, the 1-hour tumbling window per origin):
 * <ul>
 *   <li><b>throughput</b>: N flight-like events are published, then read by (a) a raw consumer
 *       doing nothing ({@link RawConsumer}) and (b) one Sluice consumer writing them to the sink,
 *       the quarantine, the windows and the offsets in one transaction per poll. Each is timed from
 *       its first record to its last (group join excluded for both); the ratio is the result
 *       (issue goal: Sluice ≥ 50 % of the raw rate);</li>
 *   <li><b>latency</b>: with a Sluice consumer caught up, events are published at R per second for
 *       S seconds, each record's timestamp the send time; event-to-sink latency is the commit time
 *       of its batch minus that timestamp (same machine, same clock). The first 20 % of the run is
 *       warm-up, reported apart; p50/p99/max of the rest (issue goal at 10k/s: p99 &lt; 500 ms).</li>
 * </ul>
 * Repeats report median and spread. Run: {@code mvn -q -pl bench org.codehaus.mojo:exec-maven-plugin:3.5.0:java
 * -Dexec.mainClass=dev.sluice.bench.HotPathBench -Dexec.args="[EVENTS] [RATE] [SECONDS] [REPEATS] [MAX_POLL_RECORDS]"}
 * (defaults 300000, 10000, 30, 3, the spec's 500; the last applies to both consumers' throughput runs). Needs {@code kafka-dev/target/lib} (built by {@code mvn package}).
 * Writes {@code bench/target/hotpath-bench.json}.
 */
public final class HotPathBench {

    private static final List<String> AIRPORTS = List.of("ORD", "ATL", "DFW", "LAX", "DEN", "PHX", "IAH", "LAS", "DTW", "MSP");

    private static final String MAX_POLL_RECORDS = "sluice.bench.max.poll.records";

    private HotPathBench() {
    }

    /**
     * What one run found.
     *
     * @param rawEventsPerSecond the raw consumer's rate of each repeat
     * @param sinkEventsPerSecond the Sluice consumer's rate of each repeat
     * @param latencyP50Ms p50 event-to-sink latency of each repeat, ms
     * @param latencyP99Ms p99 of each repeat, ms
     * @param latencyMaxMs the largest of each repeat, ms
     * @param warmUpP99Ms p99 of the warm-up part of each repeat, ms
     * @param achievedRate events per second actually published in the latency runs
     */
    public record Result(int events, int rate, int seconds, List<Double> rawEventsPerSecond, List<Double> sinkEventsPerSecond,
            List<Double> latencyP50Ms, List<Double> latencyP99Ms, List<Double> latencyMaxMs, List<Double> warmUpP99Ms,
            List<Double> achievedRate) {

        /** Sink rate over raw rate, the medians'. */
        public double ratio() {
            return median(sinkEventsPerSecond) / median(rawEventsPerSecond);
        }
    }

    public static void main(String[] args) throws Exception {
        int events = args.length > 0 ? Integer.parseInt(args[0]) : 300_000;
        int rate = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 30;
        int repeats = args.length > 3 ? Integer.parseInt(args[3]) : 3;
        if (args.length > 4) {
            System.setProperty(MAX_POLL_RECORDS, args[4]); // records per poll for both consumers (default: the spec's, 500)
        }
        Path root = root();
        Path work = Files.createTempDirectory("sluice-hotpath-bench");
        Result r = measure(root, work, events, rate, seconds, repeats);
        ObjectMapper json = new ObjectMapper();
        ObjectNode out = json.createObjectNode().put("events", events).put("rate_per_s", rate).put("seconds", seconds)
                .put("median_raw_events_per_s", median(r.rawEventsPerSecond())).put("median_sink_events_per_s", median(r.sinkEventsPerSecond()))
                .put("sink_to_raw_ratio", r.ratio()).put("median_latency_p50_ms", median(r.latencyP50Ms()))
                .put("median_latency_p99_ms", median(r.latencyP99Ms())).put("cores", Runtime.getRuntime().availableProcessors())
                .put("max_heap_mb", Runtime.getRuntime().maxMemory() >> 20).put("java", System.getProperty("java.version"));
        out.putPOJO("repeats", r);
        Path target = root.resolve("bench/target");
        Files.createDirectories(target);
        json.writerWithDefaultPrettyPrinter().writeValue(target.resolve("hotpath-bench.json").toFile(), out);
        System.out.printf(Locale.ROOT, "hot path: sink %,.0f events/s vs raw consumer %,.0f events/s = %.0f %% (medians of %d; sink %s, raw %s)%n",
                median(r.sinkEventsPerSecond()), median(r.rawEventsPerSecond()), 100 * r.ratio(), repeats, rounded(r.sinkEventsPerSecond()),
                rounded(r.rawEventsPerSecond()));
        System.out.printf(Locale.ROOT, "latency at %,d events/s (achieved %s) for %d s: p50 %.0f ms, p99 %.0f ms (medians; p99 of each %s, max %s,"
                + " warm-up p99 %s)%n", rate, rounded(r.achievedRate()), seconds, median(r.latencyP50Ms()), median(r.latencyP99Ms()),
                rounded(r.latencyP99Ms()), rounded(r.latencyMaxMs()), rounded(r.warmUpP99Ms()));
    }

    /** Starts kafka-dev under {@code work}, measures {@code repeats} times, stops it. */
    public static Result measure(Path root, Path work, int events, int rate, int seconds, int repeats) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Map<String, String> vars = new HashMap<>(Map.of("SLUICE_HOME", work.toString(), "SLUICE_KAFKA_BOOTSTRAP", "127.0.0.1:" + port));
        Path broker = work.resolve("kafka-dev");
        KafkaDevProcess.start(root.resolve("kafka-dev/target/lib"), broker, port);
        List<Double> raw = new ArrayList<>();
        List<Double> sink = new ArrayList<>();
        List<Double> p50 = new ArrayList<>();
        List<Double> p99 = new ArrayList<>();
        List<Double> max = new ArrayList<>();
        List<Double> warm = new ArrayList<>();
        List<Double> achieved = new ArrayList<>();
        try {
            for (int i = 0; i < repeats; i++) {
                double[] t = throughput(root, work, vars, events);
                raw.add(t[0]);
                sink.add(t[1]);
                double[] l = latency(root, work, vars, rate, seconds);
                p50.add(l[0]);
                p99.add(l[1]);
                max.add(l[2]);
                warm.add(l[3]);
                achieved.add(l[4]);
            }
        } finally {
            KafkaDevProcess.stop(broker);
        }
        return new Result(events, rate, seconds, raw, sink, p50, p99, max, warm, achieved);
    }

    /** [raw events/s, sink events/s] over a fresh topic of {@code events} events. */
    private static double[] throughput(Path root, Path work, Map<String, String> vars, int events) throws Exception {
        PipelineSpec spec = spec(root, work, vars, "bench.throughput." + UUID.randomUUID());
        try (LivePublisher p = LivePublisher.of(spec.hotPath(), Map.of())) {
            LocalDateTime t0 = LocalDateTime.parse("2001-01-02T00:00:00");
            for (int i = 0; i < events; i++) {
                LocalDateTime at = t0.plusNanos(i * 200_000_000L);
                p.publish("t-" + i, event(at, i), at.toInstant(ZoneOffset.UTC).toEpochMilli());
            }
            p.flush();
        }
        long rawNanos = RawConsumer.read(spec.hotPath(), clientSettings(), events, Duration.ofMinutes(10));
        try (Warehouse w = Warehouse.open(spec.warehouse(), 4)) {
            airports(w);
            AtomicLong first = new AtomicLong();
            AtomicLong last = new AtomicLong();
            AtomicLong done = new AtomicLong();
            LiveConsumer c = LiveConsumer.of(spec, w, clientSettings(), new LiveConsumer.Hooks() {
                @Override
                public void beforeCommit(long batch) {
                    first.compareAndSet(0, System.nanoTime());
                }

                @Override
                public void committed(long batch, long[] recordTimestampsMs) {
                    if (done.addAndGet(recordTimestampsMs.length) >= events) {
                        last.compareAndSet(0, System.nanoTime());
                    }
                }
            });
            CompletableFuture<Void> running = CompletableFuture.runAsync(c);
            long end = System.nanoTime() + Duration.ofMinutes(10).toNanos();
            while (last.get() == 0) {
                if (System.nanoTime() > end || running.isDone()) {
                    c.close();
                    running.get(1, TimeUnit.MINUTES);
                    throw new IllegalStateException("the sink took " + done.get() + " of " + events + " events");
                }
                LockSupport.parkNanos(20_000_000L); // polling for the end
            }
            c.close();
            running.get(1, TimeUnit.MINUTES);
            return new double[] {events / (rawNanos / 1e9), events / ((last.get() - first.get()) / 1e9)};
        }
    }

    /** [p50, p99, max, warm-up p99 (ms), achieved events/s] of a run at {@code rate}/s for {@code seconds}. */
    private static double[] latency(Path root, Path work, Map<String, String> vars, int rate, int seconds) throws Exception {
        PipelineSpec spec = spec(root, work, vars, "bench.latency." + UUID.randomUUID());
        int total = rate * seconds;
        long[] latencies = new long[total + 1_000];
        AtomicLong n = new AtomicLong();
        try (Warehouse w = Warehouse.open(spec.warehouse(), 4); LivePublisher p = LivePublisher.of(spec.hotPath(), Map.of())) {
            airports(w);
            p.publish("warm-0", event(LocalDateTime.now(ZoneOffset.UTC), 0), System.currentTimeMillis());
            p.flush();
            CountDownLatch joined = new CountDownLatch(1);
            LiveConsumer c = LiveConsumer.of(spec, w, Map.of(), new LiveConsumer.Hooks() {
                @Override
                public void beforeCommit(long batch) {
                }

                @Override
                public void committed(long batch, long[] recordTimestampsMs) {
                    long now = System.currentTimeMillis();
                    joined.countDown();
                    for (long ts : recordTimestampsMs) {
                        int at = (int) n.getAndIncrement();
                        if (at < latencies.length) {
                            latencies[at] = now - ts;
                        }
                    }
                }
            });
            CompletableFuture<Void> running = CompletableFuture.runAsync(c);
            if (!joined.await(2, TimeUnit.MINUTES)) {
                throw new IllegalStateException("the consumer did not start");
            }
            n.set(0); // the warm-up event before the consumer had joined is not a measure
            long startedAt = System.nanoTime();
            for (int i = 0; i < total; i++) {
                long due = startedAt + i * 1_000_000_000L / rate;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait); // pacing to the rate
                }
                p.publish("l-" + i, event(LocalDateTime.now(ZoneOffset.UTC), i), System.currentTimeMillis());
            }
            p.flush();
            double achieved = total / ((System.nanoTime() - startedAt) / 1e9);
            long end = System.nanoTime() + Duration.ofMinutes(5).toNanos();
            while (n.get() < total && System.nanoTime() < end) {
                LockSupport.parkNanos(20_000_000L); // polling for the end
            }
            c.close();
            running.get(1, TimeUnit.MINUTES);
            if (n.get() < total) {
                throw new IllegalStateException("only " + n.get() + " of " + total + " events reached the sink");
            }
            int warmUp = total / 5;
            long[] measured = Arrays.copyOfRange(latencies, warmUp, total);
            long[] warm = Arrays.copyOfRange(latencies, 0, warmUp);
            Arrays.sort(measured);
            Arrays.sort(warm);
            return new double[] {percentile(measured, 0.50), percentile(measured, 0.99), measured[measured.length - 1],
                    warm.length == 0 ? 0 : percentile(warm, 0.99), achieved};
        }
    }

    private static Map<String, Object> clientSettings() {
        String records = System.getProperty(MAX_POLL_RECORDS);
        return records == null ? Map.of() : Map.of("max.poll.records", records);
    }

    private static PipelineSpec spec(Path root, Path work, Map<String, String> vars, String topic) {
        Map<String, String> v = new HashMap<>(vars);
        v.put("SLUICE_FLIGHTS_TOPIC", topic);
        v.put("SLUICE_WAREHOUSE_URL", "jdbc:h2:file:" + work.resolve("wh-" + UUID.randomUUID()).toAbsolutePath());
        return new PipelineSpecLoader(new SluiceEnvironment(v).interpolator()).load(root.resolve("pipelines/flights.yaml"));
    }

    /** {@code silver.airports} with the bench's airports: the reference Silver's unknown_airport rule reads. */
    private static void airports(Warehouse w) {
        w.dsl().execute("CREATE SCHEMA IF NOT EXISTS silver");
        w.dsl().execute("CREATE TABLE IF NOT EXISTS silver.airports (iata VARCHAR(8) PRIMARY KEY)");
        for (String a : AIRPORTS) {
            w.dsl().execute("MERGE INTO silver.airports (iata) KEY (iata) VALUES ('" + a + "')");
        }
    }

    private static byte[] event(LocalDateTime at, int i) {
        return ("{\"date\":\"" + at.withNano(0) + "\",\"delay\":" + (i % 157 - 20) + ",\"distance\":" + (120 + i % 2_400) + ",\"origin\":\""
                + AIRPORTS.get(i % AIRPORTS.size()) + "\",\"destination\":\"" + AIRPORTS.get((i / 10) % AIRPORTS.size()) + "\"}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static double percentile(long[] sorted, double q) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)];
    }

    static double median(List<Double> values) {
        return Spread.of(values).median();
    }

    private static String rounded(List<Double> values) {
        return values.stream().map(v -> String.format(Locale.ROOT, "%,.0f", v)).toList().toString();
    }

    static Path root() {
        Path root = Path.of("").toAbsolutePath();
        while (root != null && !Files.exists(root.resolve("pipelines/flights.yaml"))) {
            root = root.getParent();
        }
        if (root == null) {
            throw new IllegalStateException("run from the project (no pipelines/flights.yaml above " + Path.of("").toAbsolutePath() + ")");
        }
        return root;
    }


}
