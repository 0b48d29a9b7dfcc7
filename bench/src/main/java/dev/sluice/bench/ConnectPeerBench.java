package dev.sluice.bench;

import dev.sluice.bench.SpringBatchBronzeBaseline.Flight;
import dev.sluice.bench.SpringBatchBronzeBaseline.ParquetFlightsReader;
import dev.sluice.hotpath.KafkaDevProcess;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Sluice's hot-path peer that users pick instead: a Kafka Connect standalone worker (Apache Kafka
 * {@code connect-runtime}) running Debezium's JDBC sink connector ({@code JdbcSinkConnector}) into
 * PostgreSQL, upserting by the event id, in its own JVM with its own library versions
 * ({@code bench/peers/connect/pom.xml}, built on demand: {@code mvn -f bench/peers/connect/pom.xml package}).
 *
 * <p>The events are real flights (the sample's landed days, in date order), one Kafka record each,
 * in Kafka Connect's {@code JsonConverter} schema envelope (a JDBC sink needs a schema):
 * {@code {"schema": {struct event_id, date (Timestamp), delay, distance, origin, destination, sent_ms},
 * "payload": {…}}}; the same fields as Sluice's flight events plus the event id and the send time.
 * The topic has 3 partitions; the connector runs 3 tasks (one per partition), {@code insert.mode=upsert},
 * {@code primary.key.mode=record_value} on {@code event_id}, into a table created beforehand.
 *
 * <ul>
 *   <li><b>throughput</b>: the whole topic is published first, then the worker starts; events per
 *       second from the first row's commit to the last's (commit times from PostgreSQL's
 *       {@code track_commit_timestamp}), and the CPU the worker's JVM and PostgreSQL used meanwhile
 *       ({@link CpuTime}; 1.0 = one core kept busy);</li>
 *   <li><b>latency</b> at fixed rates: with the worker caught up on a fresh topic, events are sent
 *       at R per second for S seconds; latency = the row's commit time
 *       ({@code pg_xact_commit_timestamp(xmin)}) minus the record's timestamp (its CreateTime, set to
 *       the send time), both this machine's clock; the first 20 % is warm-up, left out.</li>
 * </ul>
 * Run: {@code mvn -q -pl bench org.codehaus.mojo:exec-maven-plugin:3.5.0:java -Dexec.mainClass=dev.sluice.bench.ConnectPeerBench
 * -Dexec.args="--home DIR [--events N] [--rates 10000,50000] [--seconds S] [--batch N]"}.
 * Not thread-safe; one run at a time.
 */
public final class ConnectPeerBench {

    static final String TABLE = "flight_events_connect";

    /**
     * One run's figures.
     *
     * @param events events in the throughput run
     * @param eventsPerSecond first to last commit, events/s
     * @param workerCores the worker JVM's CPU over the throughput run, cores (1.0 = one core)
     * @param postgresCores PostgreSQL's CPU (postmaster and backends) over the same interval, cores
     * @param latency per rate: [rate, achieved rate, p50 ms, p99 ms, max ms]
     */
    public record Result(long events, double eventsPerSecond, double workerCores, double postgresCores, List<double[]> latency) {
    }

    private ConnectPeerBench() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> a = new java.util.HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("expected --name value pairs, got " + args[i]);
            }
            a.put(args[i].substring(2), args[i + 1]);
        }
        Path home = Path.of(a.getOrDefault("home", "var")).toAbsolutePath();
        Path work = Files.createDirectories(Path.of(a.getOrDefault("work", "bench/target/connect-peer")).toAbsolutePath());
        int events = Integer.parseInt(a.getOrDefault("events", "1000000"));
        List<Integer> rates = java.util.Arrays.stream(a.getOrDefault("rates", "10000,50000").split(",")).map(Integer::valueOf).toList();
        int seconds = Integer.parseInt(a.getOrDefault("seconds", "30"));
        int batch = Integer.parseInt(a.getOrDefault("batch", "5000"));
        Result r = measure(HotPathBench.root(), home, work, events, rates, seconds, batch);
        System.out.printf(Locale.ROOT, "Kafka Connect + Debezium JDBC sink: %,d events at %,.0f events/s; worker %.2f cores, PostgreSQL %.2f cores%n",
                r.events(), r.eventsPerSecond(), r.workerCores(), r.postgresCores());
        for (double[] l : r.latency()) {
            System.out.printf(Locale.ROOT, "  at %,.0f events/s (achieved %,.0f): p50 %.0f ms, p99 %.0f ms, max %.0f ms%n", l[0], l[1], l[2], l[3], l[4]);
        }
    }

    /** Starts a broker and a PostgreSQL, measures, stops both. */
    public static Result measure(Path root, Path home, Path work, int events, List<Integer> rates, int seconds, int batch) throws Exception {
        Path lib = lib(root);
        Path broker = work.resolve("broker");
        int port = freePort();
        KafkaDevProcess.start(root.resolve("kafka-dev/target/lib"), broker, port);
        Path pgData = work.resolve("pg");
        try (EmbeddedPostgres pg = EmbeddedPostgres.builder().setDataDirectory(pgData).setCleanDataDirectory(true)
                .setServerConfig("track_commit_timestamp", "on").setServerConfig("synchronous_commit", "on").start()) {
            List<Long> pgPids = List.of(Long.parseLong(Files.readAllLines(pgData.resolve("postmaster.pid")).get(0).trim()));
            return measure(lib, home, work, "127.0.0.1:" + port, pg, pgPids, events, rates, seconds, batch);
        } finally {
            KafkaDevProcess.stop(broker);
        }
    }

    /**
     * The peer's libraries, {@code bench/peers/connect/target/lib}.
     *
     * @throws IllegalStateException when the peer is not built
     */
    static Path lib(Path root) {
        Path lib = root.resolve("bench/peers/connect/target/lib");
        if (!Files.isDirectory(lib)) {
            throw new IllegalStateException("no " + lib + ": build the peer first (mvn -f bench/peers/connect/pom.xml package)");
        }
        return lib;
    }

    /**
     * Measures on a running broker and PostgreSQL (started with {@code track_commit_timestamp=on}):
     * table {@value #TABLE} created in its {@code postgres} database, topics {@code peer.throughput}
     * and {@code peer.rate<R>} published here.
     *
     * @param pgPids the PostgreSQL server's postmaster (its backends are its descendants)
     */
    static Result measure(Path lib, Path home, Path work, String bootstrap, EmbeddedPostgres pg, List<Long> pgPids, int events,
            List<Integer> rates, int seconds, int batch) throws Exception {
        createTable(pg);
        long published = publish(bootstrap, "peer.throughput", home, events, 0, 0);
        double[] t = throughput(lib, work, bootstrap, pg, pgPids, "peer.throughput", published, batch);
        List<double[]> latency = new ArrayList<>();
        for (int rate : rates) {
            latency.add(latency(lib, work, bootstrap, pg, "peer.rate" + rate, home, rate, seconds, batch));
        }
        return new Result(published, t[0], t[1], t[2], latency);
    }

    /** [events/s, worker cores, PostgreSQL cores] of the worker draining {@code topic}. */
    private static double[] throughput(Path lib, Path work, String bootstrap, EmbeddedPostgres pg, List<Long> pgPids, String topic,
            long events, int batch) throws Exception {
        truncate(pg);
        try (ConnectWorker w = ConnectWorker.start(lib, work.resolve("throughput"), bootstrap, pg.getPort(), topic, batch)) {
            waitForRows(pg, 1, w);
            long start = System.nanoTime();
            double workerCpu = CpuTime.seconds(w.pid());
            double pgCpu = CpuTime.seconds(pgPids);
            waitForRows(pg, events, w);
            double wall = (System.nanoTime() - start) / 1e9;
            double workerCores = (CpuTime.seconds(w.pid()) - workerCpu) / wall;
            double pgCores = (CpuTime.seconds(pgPids) - pgCpu) / wall;
            try (Connection c = pg.getPostgresDatabase().getConnection(); Statement s = c.createStatement();
                 ResultSet r = s.executeQuery("SELECT EXTRACT(EPOCH FROM max(pg_xact_commit_timestamp(xmin)) - min(pg_xact_commit_timestamp(xmin)))"
                         + " FROM " + TABLE)) {
                r.next();
                return new double[] {events / r.getDouble(1), workerCores, pgCores};
            }
        }
    }

    /** [rate, achieved rate, p50, p99, max (ms)] at {@code rate} events/s for {@code seconds}. */
    private static double[] latency(Path lib, Path work, String bootstrap, EmbeddedPostgres pg, String topic, Path home, int rate,
            int seconds, int batch) throws Exception {
        truncate(pg);
        createTopic(bootstrap, topic);
        try (ConnectWorker w = ConnectWorker.start(lib, work.resolve("latency-" + rate), bootstrap, pg.getPort(), topic, batch)) {
            publish(bootstrap, topic, home, 1, 0, 0); // one event: the worker has joined when it lands
            waitForRows(pg, 1, w);
            long startMs = System.currentTimeMillis();
            long sent = publish(bootstrap, topic, home, (long) rate * seconds, rate, 1);
            double achieved = sent / ((System.currentTimeMillis() - startMs) / 1000.0);
            waitForRows(pg, sent + 1, w);
            long warmUpEndMs = startMs + seconds * 200L; // the first 20 %
            try (Connection c = pg.getPostgresDatabase().getConnection(); Statement s = c.createStatement();
                 ResultSet r = s.executeQuery("WITH l AS (SELECT EXTRACT(EPOCH FROM pg_xact_commit_timestamp(xmin)) * 1000 - sent_ms AS ms FROM "
                         + TABLE + " WHERE sent_ms >= " + warmUpEndMs + ") SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms),"
                         + " percentile_cont(0.99) WITHIN GROUP (ORDER BY ms), max(ms) FROM l")) {
                r.next();
                return new double[] {rate, achieved, r.getDouble(1), r.getDouble(2), r.getDouble(3)};
            }
        }
    }

    /**
     * Publishes {@code count} flights (the landed days in order, wrapping round) as envelopes, ids
     * from {@code firstId}; at {@code rate} per second when positive, else as fast as the producer goes.
     *
     * @return events sent
     */
    static long publish(String bootstrap, String topic, Path home, long count, int rate, long firstId) throws IOException {
        return publish(bootstrap, topic, home, count, rate, firstId, ConnectPeerBench::envelope);
    }

    /** A record's value for a flight: its id, the flight and the send time (ms since the epoch). */
    @FunctionalInterface
    interface Encoder {
        byte[] encode(String id, Flight f, long sentMs);
    }

    /** {@link #publish(String, String, Path, long, int, long)} with values from {@code encoder}. */
    static long publish(String bootstrap, String topic, Path home, long count, int rate, long firstId, Encoder encoder) throws IOException {
        createTopic(bootstrap, topic);
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("linger.ms", "5");
        p.put("batch.size", "262144");
        p.put("compression.type", "none");
        List<Path> files = landedFiles(home.resolve("landing/flights"));
        long start = System.nanoTime();
        long sent = 0;
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer())) {
            while (sent < count) {
                ParquetFlightsReader reader = new ParquetFlightsReader(files);
                try {
                    for (Flight f; sent < count && (f = reader.read()) != null; sent++) {
                        if (rate > 0) {
                            long due = start + sent * 1_000_000_000L / rate;
                            long wait = due - System.nanoTime();
                            if (wait > 0) {
                                LockSupport.parkNanos(wait); // pacing the sender to the fixed rate
                            }
                        }
                        long now = System.currentTimeMillis();
                        String id = "e-" + (firstId + sent);
                        var unused = producer.send(new ProducerRecord<>(topic, null, now, id, encoder.encode(id, f, now))); // flushed on close
                    }
                } finally {
                    reader.close();
                }
            }
            producer.flush();
        }
        return sent;
    }

    /** The landed Parquet files of every day ({@code dt=YYYY-MM-DD/…}), in date order. */
    static List<Path> landedFiles(Path flights) throws IOException {
        try (var s = Files.walk(flights)) {
            List<Path> files = s.filter(f -> f.getFileName().toString().endsWith(".parquet")).sorted().toList();
            if (files.isEmpty()) {
                throw new IllegalStateException("no landed flights under " + flights + " (sluice sample-data lays them out)");
            }
            return files;
        }
    }

    /** The record's value: a {@code JsonConverter} envelope (schema and payload). */
    static byte[] envelope(String id, Flight f, long sentMs) {
        return ("{\"schema\":{\"type\":\"struct\",\"name\":\"flight_event\",\"optional\":false,\"fields\":["
                + "{\"field\":\"event_id\",\"type\":\"string\",\"optional\":false},"
                + "{\"field\":\"date\",\"type\":\"int64\",\"name\":\"org.apache.kafka.connect.data.Timestamp\",\"version\":1,\"optional\":false},"
                + "{\"field\":\"delay\",\"type\":\"int64\",\"optional\":false},{\"field\":\"distance\",\"type\":\"int64\",\"optional\":false},"
                + "{\"field\":\"origin\",\"type\":\"string\",\"optional\":false},{\"field\":\"destination\",\"type\":\"string\",\"optional\":false},"
                + "{\"field\":\"sent_ms\",\"type\":\"int64\",\"optional\":false}]},"
                + "\"payload\":{\"event_id\":\"" + id + "\",\"date\":" + f.date().toInstant(ZoneOffset.UTC).toEpochMilli() + ",\"delay\":"
                + f.delay() + ",\"distance\":" + f.distance() + ",\"origin\":\"" + f.origin() + "\",\"destination\":\"" + f.destination()
                + "\",\"sent_ms\":" + sentMs + "}}").getBytes(StandardCharsets.UTF_8);
    }

    static void createTopic(String bootstrap, String topic) {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            if (!admin.listTopics().names().get(30, TimeUnit.SECONDS).contains(topic)) {
                admin.createTopics(List.of(new NewTopic(topic, 3, (short) 1))).all().get(30, TimeUnit.SECONDS);
            }
        } catch (Exception e) {
            throw new IllegalStateException("cannot create topic " + topic + ": " + e.getMessage(), e);
        }
    }

    private static void createTable(EmbeddedPostgres pg) throws SQLException {
        try (Connection c = pg.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + TABLE + " (event_id TEXT PRIMARY KEY, date TIMESTAMP NOT NULL, delay BIGINT NOT NULL,"
                    + " distance BIGINT NOT NULL, origin TEXT NOT NULL, destination TEXT NOT NULL, sent_ms BIGINT NOT NULL)");
        }
    }

    private static void truncate(EmbeddedPostgres pg) throws SQLException {
        try (Connection c = pg.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            s.execute("TRUNCATE " + TABLE);
        }
    }

    /** Waits until the table holds {@code rows} rows (checked every 500 ms), failing if the worker dies or 20 min pass. */
    private static void waitForRows(EmbeddedPostgres pg, long rows, ConnectWorker w) throws SQLException {
        long end = System.nanoTime() + TimeUnit.MINUTES.toNanos(20);
        try (Connection c = pg.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            while (true) {
                try (ResultSet r = s.executeQuery("SELECT count(*) FROM " + TABLE)) {
                    r.next();
                    if (r.getLong(1) >= rows) {
                        return;
                    }
                }
                if (!w.alive() || System.nanoTime() > end) {
                    throw new IllegalStateException("the Connect worker " + (w.alive() ? "is too slow" : "ended")
                            + " before " + rows + " rows; see " + w.log());
                }
                LockSupport.parkNanos(500_000_000L); // polling the sink table: the measure reads commit times, not this loop
            }
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
