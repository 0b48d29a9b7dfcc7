package dev.sluice.bench;

import dev.sluice.bench.SpringBatchBronzeBaseline.Flight;
import dev.sluice.hotpath.KafkaDevProcess;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The hot path's window against Apache Flink: the same real flights as Sluice's events (its JSON
 * shape) on a 3-partition topic of a kafka-dev broker, read by {@code FlinkWindowPeer}
 * ({@code bench/peers/flink}, Flink 2.0.1 in a local mini-cluster, its own JVM and library
 * versions; built on demand: {@code mvn -f bench/peers/flink/pom.xml package}): event time with
 * the allowed lateness as a bounded out-of-orderness watermark, a 1-hour tumbling window per
 * origin, Flink's JDBC sink upserting each window into embedded PostgreSQL.
 *
 * <p>Measured: events per second from the first event parsed to the job's end (every window
 * fired and flushed: the topic is bounded at its end offsets when the job starts), the JVM's
 * and PostgreSQL's CPU over the whole job ({@link CpuTime}; 1.0 = one core, the JVM's start
 * included), and a check that every event is in a window or counted late: the windows' flights
 * plus the late events equal the events published.
 *
 * <p>Run: {@code mvn -q -pl bench org.codehaus.mojo:exec-maven-plugin:3.5.0:java -Dexec.mainClass=dev.sluice.bench.FlinkPeerBench
 * -Dexec.args="--home DIR [--events N] [--lateness PT10M] [--parallelism 3]"}. Not thread-safe.
 */
public final class FlinkPeerBench {

    private static final Pattern RESULT = Pattern.compile(
            "FLINK-RESULT events=(\\d+) late=(\\d+) windows=(\\d+) first_ns=(\\d+) last_ns=(\\d+) end_ns=(\\d+)");

    /**
     * One run's figures.
     *
     * @param events events read by Flink
     * @param late events behind the watermark (not in any window)
     * @param windows window rows written
     * @param eventsPerSecond first event parsed to the job's end
     * @param flinkCores the Flink JVM's CPU over its life, cores
     * @param postgresCores PostgreSQL's CPU over the same time, cores
     */
    public record Result(long events, long late, long windows, double eventsPerSecond, double flinkCores, double postgresCores) {
    }

    private FlinkPeerBench() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> a = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            a.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        Path home = Path.of(a.getOrDefault("home", "var")).toAbsolutePath();
        Path work = Files.createDirectories(Path.of(a.getOrDefault("work", "bench/target/flink-peer")).toAbsolutePath());
        Result r = measure(HotPathBench.root(), home, work, Integer.parseInt(a.getOrDefault("events", "1000000")),
                a.getOrDefault("lateness", "PT10M"), Integer.parseInt(a.getOrDefault("parallelism", "3")));
        System.out.printf(Locale.ROOT, "Flink 1-hour tumbling window per origin: %,d events (%,d late) into %,d windows at %,.0f events/s;"
                + " Flink %.2f cores, PostgreSQL %.2f cores%n", r.events(), r.late(), r.windows(), r.eventsPerSecond(), r.flinkCores(),
                r.postgresCores());
    }

    /** Starts a broker and a PostgreSQL, publishes {@code events} flights, runs the Flink job once, stops both. */
    public static Result measure(Path root, Path home, Path work, int events, String lateness, int parallelism) throws Exception {
        Path peer = target(root);
        Path broker = work.resolve("broker");
        int port = ConnectPeerBench.freePort();
        KafkaDevProcess.start(root.resolve("kafka-dev/target/lib"), broker, port);
        Path pgData = work.resolve("pg");
        try (EmbeddedPostgres pg = EmbeddedPostgres.builder().setDataDirectory(pgData).setCleanDataDirectory(true).start()) {
            String bootstrap = "127.0.0.1:" + port;
            List<Long> pgPids = List.of(Long.parseLong(Files.readAllLines(pgData.resolve("postmaster.pid")).get(0).trim()));
            long published = ConnectPeerBench.publish(bootstrap, "peer.flink", home, events, 0, 0, FlinkPeerBench::event);
            return measure(peer, work, bootstrap, "peer.flink", published, pg, pgPids, lateness, parallelism);
        } finally {
            KafkaDevProcess.stop(broker);
        }
    }

    /**
     * The peer's build output, {@code bench/peers/flink/target} (its {@code classes} and {@code lib}).
     *
     * @throws IllegalStateException when the peer is not built
     */
    static Path target(Path root) {
        Path peer = root.resolve("bench/peers/flink/target");
        if (!Files.isDirectory(peer.resolve("lib")) || !Files.isDirectory(peer.resolve("classes"))) {
            throw new IllegalStateException("no " + peer + "/lib and classes: build the peer first (mvn -f bench/peers/flink/pom.xml package)");
        }
        return peer;
    }

    /**
     * Runs the Flink job once over {@code topic} of a running broker, which holds {@code published}
     * events in Sluice's JSON shape ({@link #event}), into table {@code airport_delays_flink} of a
     * running PostgreSQL's {@code postgres} database (created here).
     *
     * @param pgPids the PostgreSQL server's postmaster (its backends are its descendants)
     * @throws IllegalStateException when the job fails or its windows do not account for every event
     */
    static Result measure(Path peer, Path work, String bootstrap, String topic, long published, EmbeddedPostgres pg, List<Long> pgPids,
            String lateness, int parallelism) throws Exception {
        try (Connection c = pg.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE airport_delays_flink (origin TEXT NOT NULL, window_start TIMESTAMP NOT NULL, flights BIGINT NOT NULL,"
                    + " avg_delay_min DOUBLE PRECISION NOT NULL, max_delay_min BIGINT NOT NULL, PRIMARY KEY (origin, window_start))");
        }
        Files.createDirectories(work);
        Path log = work.resolve("flink.log");
        double pgCpu = CpuTime.seconds(pgPids);
        long start = System.nanoTime();
        Process p = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx2g",
                "--add-opens=java.base/java.util=ALL-UNNAMED", "--add-opens=java.base/java.lang=ALL-UNNAMED",
                "-cp", peer.resolve("classes") + java.io.File.pathSeparator + peer.resolve("lib").resolve("*"),
                "dev.sluice.bench.peers.flink.FlinkWindowPeer", bootstrap, topic,
                "jdbc:postgresql://127.0.0.1:" + pg.getPort() + "/postgres?reWriteBatchedInserts=true", lateness,
                Integer.toString(parallelism)))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        double flinkCpu = 0;
        while (!p.waitFor(200, TimeUnit.MILLISECONDS)) {
            flinkCpu = Math.max(flinkCpu, CpuTime.seconds(p.pid())); // read while it lives: /proc forgets it at exit
        }
        double wall = (System.nanoTime() - start) / 1e9;
        double pgCores = (CpuTime.seconds(pgPids) - pgCpu) / wall;
        Matcher m = RESULT.matcher(Files.readString(log, StandardCharsets.UTF_8));
        if (p.exitValue() != 0 || !m.find()) {
            throw new IllegalStateException("the Flink job failed (exit " + p.exitValue() + "); see " + log);
        }
        long read = Long.parseLong(m.group(1));
        long late = Long.parseLong(m.group(2));
        long windows = Long.parseLong(m.group(3));
        double seconds = (Long.parseLong(m.group(6)) - Long.parseLong(m.group(4))) / 1e9;
        try (Connection c = pg.getPostgresDatabase().getConnection(); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT count(*), coalesce(sum(flights), 0) FROM airport_delays_flink")) {
            r.next();
            if (read != published || r.getLong(1) != windows || r.getLong(2) + late != published) {
                throw new IllegalStateException("Flink's windows do not account for every event: published " + published + ", read "
                        + read + ", late " + late + ", windows " + r.getLong(1) + " of " + windows + " holding " + r.getLong(2));
            }
        }
        return new Result(read, late, windows, read / seconds, flinkCpu / wall, pgCores);
    }

    /** Sluice's flight event JSON (what {@code hot_path} of flights.yaml reads). */
    static byte[] event(String id, Flight f, long sentMs) {
        return ("{\"date\":\"" + f.date().withNano(0) + "\",\"delay\":" + f.delay() + ",\"distance\":" + f.distance() + ",\"origin\":\""
                + f.origin() + "\",\"destination\":\"" + f.destination() + "\"}").getBytes(StandardCharsets.UTF_8);
    }
}
