package dev.sluice.bench;

import com.sun.management.OperatingSystemMXBean;
import dev.sluice.config.PipelineSpec;
import dev.sluice.hotpath.LiveConsumer;
import dev.sluice.warehouse.Warehouse;
import dev.sluice.warehouse.meta.HotOffsetTable;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Sluice's hot path as the {@code hotsink} measure runs it: {@code consumers} {@link LiveConsumer}s
 * of one spec in this JVM, one thread each (plus each one's own writer thread), members of the
 * spec's one consumer group, writing to one warehouse. The run ends when the warehouse's stored
 * offsets ({@code sluice.hot_offset}, written in each batch's transaction) cover every record of
 * the topic: redeliveries after a rebalance are not counted twice. Not thread-safe; one run at a time.
 */
final class SluiceSinkRun {

    /**
     * The spec's {@code hot_path.max_poll_records} in the bench ({@code SLUICE_FLIGHTS_MAX_POLL_RECORDS};
     * {@code -Dsluice.bench.maxPollRecords}, default 2,000), as the Connect peer's batch is tuned: a
     * poll is one transaction, whose fixed cost larger polls spread (2026-12-04, into PostgreSQL,
     * 2 consumers: 20,251 events/s at the shipped 500, 27,609 at 2,000).
     */
    static final int MAX_POLL_RECORDS = Integer.getInteger("sluice.bench.maxPollRecords", 2_000);
    private static final OperatingSystemMXBean OS = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private SluiceSinkRun() {
    }

    /**
     * One throughput run.
     *
     * @param events records of the topic, all stored
     * @param eventsPerSecond events over the time from the first batch's commit start to the last batch's commit, events/s
     * @param jvmCores this JVM's CPU over that time (consumers, writers, JDBC driver), cores (1.0 = one core kept busy)
     * @param postgresCores PostgreSQL's CPU over that time (postmaster and backends), cores; 0 for H2
     * @param revocations partitions taken from a member during the run (rebalances), summed over the members
     * @param pauses backpressure pauses, summed over the members
     * @param sinkRows rows of the sink table after the run (each valid event once, by its record key)
     * @param windowFlights the windows' {@code flights} summed after the run (exact duplicates and events too late left out)
     */
    record Throughput(long events, double eventsPerSecond, double jvmCores, double postgresCores, long revocations, long pauses,
            long sinkRows, long windowFlights) {
    }

    /**
     * Drains the spec's topic, already holding {@code events} records, into {@code w}.
     *
     * @param postgresCpuMs CPU used so far by the database server, ms (always 0 for an in-process H2)
     * @throws IllegalStateException when the members have not stored every record within {@code timeout}
     */
    static Throughput throughput(PipelineSpec spec, Warehouse w, int consumers, long events, LongSupplier postgresCpuMs, Duration timeout)
            throws InterruptedException {
        AtomicLong first = new AtomicLong();
        AtomicLong last = new AtomicLong();
        long[] cpuAtFirst = new long[2];
        List<LiveConsumer> members = new ArrayList<>();
        for (int i = 0; i < consumers; i++) {
            members.add(LiveConsumer.of(spec, w, Map.of(), new LiveConsumer.Hooks() {
                @Override
                public void beforeCommit(long batch) {
                    long now = System.nanoTime();
                    if (first.get() == 0) {
                        synchronized (cpuAtFirst) {
                            if (first.get() == 0) {
                                cpuAtFirst[0] = OS.getProcessCpuTime();
                                cpuAtFirst[1] = postgresCpuMs.getAsLong();
                                first.set(now);
                            }
                        }
                    }
                }

                @Override
                public void committed(long batch, long[] recordTimestampsMs) {
                    last.accumulateAndGet(System.nanoTime(), Math::max);
                }
            }));
        }
        List<Thread> threads = start(members);
        double jvmCores;
        double pgCores;
        double seconds;
        try {
            awaitStored(spec, w, events, first, timeout, threads);
            long endJvm = OS.getProcessCpuTime();
            long endPg = postgresCpuMs.getAsLong();
            double wall = (System.nanoTime() - first.get()) / 1e9;
            seconds = (last.get() - first.get()) / 1e9;
            jvmCores = (endJvm - cpuAtFirst[0]) / 1e9 / wall;
            pgCores = (endPg - cpuAtFirst[1]) / 1e3 / wall;
        } finally {
            stop(members, threads);
        }
        return new Throughput(events, events / seconds, jvmCores, pgCores, members.stream().mapToLong(LiveConsumer::revocations).sum(),
                members.stream().mapToLong(LiveConsumer::pauses).sum(), count(w, "SELECT count(*) FROM " + spec.hotPath().sink()),
                count(w, "SELECT coalesce(sum(flights), 0) FROM " + spec.hotPath().windows().get(0).table()));
    }

    /**
     * One fixed-rate run.
     *
     * @param rate the rate asked for, events/s
     * @param achievedRate the rate the sender reached, events/s
     * @param latencies commit time of each record's batch minus its CreateTime (the send time), ms; the first 20 % apart
     * @param revocations partitions taken from a member during the run, summed over the members
     */
    record Latency(int rate, double achievedRate, Latencies latencies, long revocations) {
    }

    /**
     * With {@code consumers} members joined (a first event stored), sends {@code rate} real flights
     * per second for {@code seconds} to the spec's topic (created here) and takes each record's
     * latency as its batch's commit time minus its CreateTime, both this machine's clock.
     *
     * @throws IllegalStateException when the members do not join within 2 minutes, or store no event for 2 minutes before the last
     */
    static Latency latency(PipelineSpec spec, Warehouse w, int consumers, Path home, int rate, int seconds) throws Exception {
        String bootstrap = spec.hotPath().bootstrapServers();
        ConnectPeerBench.createTopic(bootstrap, spec.hotPath().topic());
        int total = rate * seconds;
        long[] ms = new long[total + 10_000];
        AtomicLong n = new AtomicLong();
        java.util.concurrent.CountDownLatch joined = new java.util.concurrent.CountDownLatch(1);
        List<LiveConsumer> members = new ArrayList<>();
        for (int i = 0; i < consumers; i++) {
            members.add(LiveConsumer.of(spec, w, Map.of(), new LiveConsumer.Hooks() {
                @Override
                public void beforeCommit(long batch) {
                }

                @Override
                public void committed(long batch, long[] recordTimestampsMs) {
                    long now = System.currentTimeMillis();
                    joined.countDown();
                    for (long ts : recordTimestampsMs) {
                        int at = (int) n.getAndIncrement();
                        if (at < ms.length) {
                            ms[at] = now - ts;
                        }
                    }
                }
            }));
        }
        List<Thread> threads = start(members);
        try {
            ConnectPeerBench.publish(bootstrap, spec.hotPath().topic(), home, 1, 0, 0, FlinkPeerBench::event);
            if (!joined.await(2, java.util.concurrent.TimeUnit.MINUTES)) {
                throw new IllegalStateException("Sluice's consumers did not store a first event of " + spec.hotPath().topic() + " in 2 minutes");
            }
            n.set(0); // the event sent before the members had joined is not a measure
            long start = System.nanoTime();
            long sent = ConnectPeerBench.publish(bootstrap, spec.hotPath().topic(), home, total, rate, 1, FlinkPeerBench::event);
            double achieved = sent / ((System.nanoTime() - start) / 1e9);
            long seen = -1;
            long stalledSince = System.nanoTime();
            while (n.get() < total) {
                if (n.get() != seen) {
                    seen = n.get();
                    stalledSince = System.nanoTime();
                } else if (System.nanoTime() - stalledSince > Duration.ofMinutes(2).toNanos()) {
                    throw new IllegalStateException("only " + n.get() + " of " + total + " events reached Sluice's sink at " + rate
                            + " events/s, none in the last 2 minutes");
                }
                LockSupport.parkNanos(20_000_000L); // polling for the end
            }
            return new Latency(rate, achieved, Latencies.of(ms, total, 0.2), members.stream().mapToLong(LiveConsumer::revocations).sum());
        } finally {
            stop(members, threads);
        }
    }

    /** Starts each member on a thread of its own, named {@code hotsink-consumer-<i>}. */
    static List<Thread> start(List<LiveConsumer> members) {
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < members.size(); i++) {
            Thread t = new Thread(members.get(i), "hotsink-consumer-" + i);
            t.start();
            threads.add(t);
        }
        return threads;
    }

    private static long count(Warehouse w, String sql) {
        return ((Number) w.dsl().fetchValue(sql)).longValue();
    }

    /** Closes every member (the batch in flight finishes) and waits for its thread, at most a minute each. */
    static void stop(List<LiveConsumer> members, List<Thread> threads) throws InterruptedException {
        members.forEach(LiveConsumer::close);
        for (Thread t : threads) {
            t.join(Duration.ofMinutes(1).toMillis());
        }
    }

    /** Events stored by the spec's group for its topic so far: the sum of the stored next offsets (0 before the first store). */
    static long stored(PipelineSpec spec, Warehouse w) {
        Object sum = w.dsl().fetchValue("SELECT coalesce(sum(next_offset), 0) FROM " + w.dsl().render(HotOffsetTable.TABLE)
                + " WHERE group_id = ? AND topic = ?",
                spec.hotPath().groupId(), spec.hotPath().topic());
        return ((Number) sum).longValue();
    }

    /** Polls the stored offsets every 50 ms once a batch has started to commit, until they cover {@code events}. */
    private static void awaitStored(PipelineSpec spec, Warehouse w, long events, AtomicLong first, Duration timeout, List<Thread> threads) {
        long end = System.nanoTime() + timeout.toNanos();
        long stored = 0;
        while (first.get() == 0 || (stored = stored(spec, w)) < events) {
            if (System.nanoTime() > end || threads.stream().noneMatch(Thread::isAlive)) {
                throw new IllegalStateException("Sluice's hot path stored " + stored + " of " + events + " events of "
                        + spec.hotPath().topic() + (System.nanoTime() > end ? " in " + timeout : " before its consumers ended"));
            }
            LockSupport.parkNanos(50_000_000L); // polling the warehouse for the end: the rate is taken from the commit hooks
        }
    }

    /** Warehouse URL placeholders of the flights spec for a run; see {@link HotSinkBench}. */
    static Map<String, String> vars(Path work, String bootstrap, String topic, String url, String user, String password) {
        return Map.of("SLUICE_HOME", work.toString(), "SLUICE_KAFKA_BOOTSTRAP", bootstrap, "SLUICE_FLIGHTS_TOPIC", topic,
                "SLUICE_WAREHOUSE_URL", url, "SLUICE_WAREHOUSE_USER", user, "SLUICE_WAREHOUSE_PASSWORD", password,
                "SLUICE_FLIGHTS_MAX_POLL_RECORDS", Integer.toString(MAX_POLL_RECORDS));
    }
}
