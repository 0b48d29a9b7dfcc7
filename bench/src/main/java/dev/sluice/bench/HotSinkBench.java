package dev.sluice.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.config.SluiceEnvironment;
import dev.sluice.hotpath.KafkaDevProcess;
import dev.sluice.warehouse.Warehouse;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import org.jooq.impl.DSL;

/**
 * The {@code hotsink} measure (issue #29): Sluice's hot path into PostgreSQL and into H2 beside
 * its peers, on ONE kafka-dev broker (a KRaft broker in its own JVM) and ONE embedded PostgreSQL
 * (zonky, real binaries, {@code track_commit_timestamp=on}, {@code synchronous_commit=on},
 * {@code pg_stat_statements} loaded: its overhead is in every side's figures), the same events for every side: N
 * real flights (the sample's landed days in date order, {@link ConnectPeerBench#publish}) in
 * Sluice's flight-event JSON ({@link FlinkPeerBench#event}), on a topic of 3 partitions. In turn:
 * <ol>
 *   <li>the ceiling of useful work: {@link JsonParsingConsumer}, as many members as Sluice's consumers;</li>
 *   <li>Sluice with {@code pipelines/flights.yaml} as shipped (event contract, Silver's rules, the
 *       1-hour tumbling window per origin) into a fresh PostgreSQL database: {@link Plan#consumers}
 *       {@code LiveConsumer}s in this JVM, one thread each, members of one consumer group
 *       ({@link SluiceSinkRun#throughput});</li>
 *   <li>the same over the same topic into a fresh H2 file warehouse;</li>
 *   <li>Sluice into PostgreSQL at each fixed rate of {@link Plan#rates}: p50/p99 of commit time
 *       minus CreateTime ({@link SluiceSinkRun#latency});</li>
 *   <li>the peers as they are, each in its own JVM on the same broker and PostgreSQL: Kafka Connect
 *       + Debezium's JDBC sink ({@link ConnectPeerBench}: N events again, as {@code JsonConverter}
 *       envelopes on a topic of their own; and at the same rates, except in the smoke run) and Flink
 *       ({@link FlinkPeerBench}, over Sluice's topic itself). A peer not built
 *       ({@code bench/peers/<peer>/target}) is skipped, the reason in {@link Result}.</li>
 * </ol>
 * Every table of silver.airports is loaded from the home's {@code landing/airports/airports.csv}
 * (the rule {@code unknown_airport} reads it). Sluice's per-warehouse rate is also written to
 * {@code bench/target/hotsink-rates.json} ({@link SluiceRates}). Not thread-safe; one run at a time.
 */
public final class HotSinkBench {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Statements kept in {@link Result#postgresStatements}. */
    static final int STATEMENTS = 12;

    private HotSinkBench() {
    }

    /**
     * How big a run is.
     *
     * @param events events on the throughput topic
     * @param consumers Sluice's consumers (and the ceiling's members), one consumer group
     * @param rates the fixed rates of the latency runs, events/s
     * @param seconds each latency run's length, s
     * @param connectBatch Connect's {@code batch.size} and {@code consumer.max.poll.records}
     */
    public record Plan(int events, int consumers, List<Integer> rates, int seconds, int connectBatch, boolean smoke) {

        /**
         * 2,000,000 events (or {@code -Dsluice.bench.hotsinkEvents}), 2 consumers, 10k and 50k
         * events/s for 20 s each. The rate is steady state only on a run long enough to bury the
         * JVM's start: with 500,000 events (12 s into PostgreSQL) the run took in the JIT compiling
         * the hot path (C2 threads at about a quarter of a core), and the same build measured
         * 37,786-40,705 events/s against 44,446 with 2,000,000 (2026-12-05).
         */
        static Plan fullRun() {
            return new Plan(Integer.getInteger("sluice.bench.hotsinkEvents", 2_000_000), 2, List.of(10_000, 50_000),
                    Integer.getInteger("sluice.bench.hotsinkSeconds", 20), 5_000, false);
        }

        /** 20,000 events, the same rates for 1 s each; the Connect peer without its latency runs. */
        static Plan smokeRun() {
            return new Plan(20_000, 2, List.of(10_000, 50_000), 1, 5_000, true);
        }
    }

    /**
     * What a run found.
     *
     * @param ceiling the JSON-parsing consumer
     * @param postgres Sluice into PostgreSQL
     * @param postgresStatements where PostgreSQL's time went while Sluice drained into it: the
     *        {@value #STATEMENTS} statements that took the most ({@link PostgresStatements})
     * @param h2 Sluice into an H2 file
     * @param postgresLatency Sluice into PostgreSQL at each rate
     * @param connect the Connect peer, or null when skipped ({@code connectSkipped} says why)
     * @param flink the Flink peer, or null when skipped ({@code flinkSkipped} says why)
     */
    public record Result(Plan plan, long events, JsonParsingConsumer.Read ceiling, SluiceSinkRun.Throughput postgres,
            List<PostgresStatements.Row> postgresStatements, SluiceSinkRun.Throughput h2, List<SluiceSinkRun.Latency> postgresLatency, ConnectPeerBench.@Nullable Result connect,
            @Nullable String connectSkipped, FlinkPeerBench.@Nullable Result flink, @Nullable String flinkSkipped) {
    }

    /** Runs {@code plan} under {@code work}: starts the broker and PostgreSQL, measures every side, stops both. */
    public static Result measure(Path root, Path home, Path work, Plan plan) throws Exception {
        Path broker = work.resolve("broker");
        int port = ConnectPeerBench.freePort();
        String bootstrap = "127.0.0.1:" + port;
        KafkaDevProcess.start(root.resolve("kafka-dev/target/lib"), broker, port);
        Path pgData = work.resolve("pg");
        try (EmbeddedPostgres pg = EmbeddedPostgres.builder().setDataDirectory(pgData).setCleanDataDirectory(true)
                .setServerConfig("track_commit_timestamp", "on").setServerConfig("synchronous_commit", "on")
                .setServerConfig("shared_preload_libraries", "pg_stat_statements").start()) {
            List<Long> pgPids = List.of(Long.parseLong(Files.readAllLines(pgData.resolve("postmaster.pid")).get(0).trim()));
            String topic = "hotsink.events";
            long events = ConnectPeerBench.publish(bootstrap, topic, home, plan.events(), 0, 0, FlinkPeerBench::event);
            String throughputDb = database(pg, "sluice_throughput");
            PostgresStatements.reset(throughputDb);
            PipelineSpec onPg = spec(root, work, bootstrap, topic, throughputDb);
            JsonParsingConsumer.Read ceiling = JsonParsingConsumer.read(bootstrap, topic, plan.consumers(), onPg.hotPath().maxPollRecords(),
                    events, Duration.ofMinutes(10));
            SluiceSinkRun.Throughput postgres = throughput(onPg, home, plan, events, () -> Math.round(CpuTime.seconds(pgPids) * 1_000));
            List<PostgresStatements.Row> statements = PostgresStatements.top(throughputDb, STATEMENTS);
            String h2 = "jdbc:h2:file:" + work.resolve("h2-warehouse").toAbsolutePath();
            SluiceSinkRun.Throughput onH2 = throughput(spec(root, work, bootstrap, topic, h2), home, plan, events, () -> 0L);
            List<SluiceSinkRun.Latency> latency = new ArrayList<>();
            for (int rate : plan.rates()) {
                PipelineSpec spec = spec(root, work, bootstrap, "hotsink.rate" + rate, database(pg, "sluice_rate" + rate));
                try (Warehouse w = Warehouse.open(spec.warehouse(), 4)) {
                    airports(w, home);
                    latency.add(SluiceSinkRun.latency(spec, w, plan.consumers(), home, rate, plan.seconds()));
                }
            }
            ConnectPeerBench.Result connect = null;
            String connectSkipped = null;
            Path connectLib = root.resolve("bench/peers/connect/target/lib");
            if (Files.isDirectory(connectLib)) {
                connect = ConnectPeerBench.measure(connectLib, home, Files.createDirectories(work.resolve("connect")), bootstrap, pg, pgPids,
                        plan.events(), plan.smoke() ? List.of() : plan.rates(), plan.seconds(), plan.connectBatch());
            } else {
                connectSkipped = notBuilt("connect", "target/lib");
            }
            FlinkPeerBench.Result flink = null;
            String flinkSkipped = null;
            Path flinkTarget = root.resolve("bench/peers/flink/target");
            if (Files.isDirectory(flinkTarget.resolve("lib")) && Files.isDirectory(flinkTarget.resolve("classes"))) {
                flink = FlinkPeerBench.measure(flinkTarget, work.resolve("flink"), bootstrap, topic, events, pg, pgPids,
                        onPg.hotPath().allowedLateness().toString(), 3);
            } else {
                flinkSkipped = notBuilt("flink", "target/lib and target/classes");
            }
            return new Result(plan, events, ceiling, postgres, statements, onH2, latency, connect, connectSkipped, flink, flinkSkipped);
        } finally {
            KafkaDevProcess.stop(broker);
        }
    }

    /** Why a peer was skipped (said on stderr too): its build output is missing. */
    private static String notBuilt(String peer, String what) {
        String why = "the peer is not built (no bench/peers/" + peer + "/" + what + "; build it with `mvn -f bench/peers/" + peer
                + "/pom.xml package`, which needs its libraries in the local Maven repository or the network)";
        System.err.println("hotsink: " + peer + " skipped: " + why);
        return why;
    }

    private static SluiceSinkRun.Throughput throughput(PipelineSpec spec, Path home, Plan plan, long events,
            java.util.function.LongSupplier pgCpuMs) throws Exception {
        try (Warehouse w = Warehouse.open(spec.warehouse(), 4)) {
            airports(w, home);
            return SluiceSinkRun.throughput(spec, w, plan.consumers(), events, pgCpuMs, Duration.ofMinutes(20));
        }
    }

    /** A fresh database {@code name} on {@code pg}; its JDBC URL. */
    private static String database(EmbeddedPostgres pg, String name) throws Exception {
        try (Connection c = pg.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        }
        return "jdbc:postgresql://127.0.0.1:" + pg.getPort() + "/" + name;
    }

    /** The flights spec as shipped, on {@code topic} of the broker, into the warehouse at {@code url} (user and password postgres). */
    static PipelineSpec spec(Path root, Path work, String bootstrap, String topic, String url) {
        boolean h2 = url.startsWith("jdbc:h2:");
        SluiceEnvironment env = new SluiceEnvironment(SluiceSinkRun.vars(work, bootstrap, topic, url, h2 ? "sa" : "postgres",
                h2 ? "" : "postgres"));
        return new PipelineSpecLoader(env.interpolator()).load(root.resolve("pipelines/flights.yaml"));
    }

    /** {@code silver.airports (iata)} with every airport of the home's {@code airports.csv}: the rule {@code unknown_airport} reads it. */
    private static void airports(Warehouse w, Path home) throws IOException {
        w.dsl().execute("CREATE SCHEMA IF NOT EXISTS silver");
        w.dsl().execute("CREATE TABLE IF NOT EXISTS silver.airports (iata VARCHAR(8) PRIMARY KEY)");
        List<String> lines = Files.readAllLines(home.resolve("landing/airports/airports.csv"));
        java.util.Set<String> iata = new java.util.LinkedHashSet<>();
        lines.subList(1, lines.size()).forEach(line -> iata.add(line.substring(0, line.indexOf(','))));
        w.dsl().execute("DELETE FROM silver.airports");
        var insert = w.dsl().batch(w.dsl().insertInto(DSL.table(DSL.name("silver", "airports")), DSL.field(DSL.name("iata"))).values((Object) null));
        for (String code : iata) {
            insert = insert.bind(code);
        }
        insert.execute();
    }

    /**
     * Writes Sluice's rate per warehouse kind for {@code sluice advise}: {@code bench/target/hotsink-rates.json}
     * after a full run, {@code hotsink-rates-smoke.json} after a smoke run (never the full run's file).
     *
     * @return the file written
     */
    static Path writeRates(Path root, Result r) throws IOException {
        Path target = Files.createDirectories(root.resolve("bench/target"));
        Path file = target.resolve(r.plan().smoke() ? "hotsink-rates-smoke.json" : "hotsink-rates.json");
        ObjectNode out = SluiceRates.of(r, OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS));
        Files.writeString(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(out) + "\n");
        System.out.printf(Locale.ROOT, "hotsink: Sluice %,.0f events/s on PostgreSQL, %,.0f on H2 (%d consumers); wrote %s%n",
                r.postgres().eventsPerSecond(), r.h2().eventsPerSecond(), r.plan().consumers(), file);
        return file;
    }
}
