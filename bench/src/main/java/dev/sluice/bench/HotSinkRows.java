package dev.sluice.bench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.bench.BenchSuite.Compare;
import java.util.List;
import java.util.Locale;

/**
 * The {@code hotsink} measure's rows of the benchmarks table, from a {@link HotSinkBench.Result}
 * (one repeat: each list of figures has one value). A peer that was skipped still has its row,
 * marked not measured ({@code "met": null} and {@code "not_measured"} saying why), so that a
 * goal is never shown met without its baseline. Stateless.
 */
final class HotSinkRows {

    static final String UNIT = "events/s";

    private HotSinkRows() {
    }

    /** Adds the rows for {@code r} to {@code rows}, in the order of issue #29's goals. */
    static void add(ArrayNode rows, HotSinkBench.Result r) {
        String what = String.format(Locale.ROOT, "%,d real flights, 3 partitions, %d consumers, windows on", r.events(),
                r.plan().consumers());
        List<Double> pg = List.of(r.postgres().eventsPerSecond());
        String sluicePg = "hot path into PostgreSQL, events/s (" + what + ")";
        if (r.connect() != null) {
            BenchSuite.row(rows, sluicePg + ": Sluice vs Kafka Connect + Debezium's JDBC sink (upserts, no windows)", pg,
                    List.of(r.connect().eventsPerSecond()), "Kafka Connect + Debezium JDBC sink, 3 tasks", Compare.AT_LEAST, 1.5, "≥ 1.5×",
                    UNIT);
        } else {
            notMeasured(rows, sluicePg + ": Sluice vs Kafka Connect + Debezium's JDBC sink (upserts, no windows)", pg, "≥ 1.5×",
                    r.connectSkipped());
        }
        BenchSuite.row(rows, sluicePg + ": Sluice vs the JSON-parsing ceiling", pg, List.of(r.ceiling().perSecond()),
                "consumers that parse each record's JSON and discard it, " + r.plan().consumers() + " members", Compare.AT_LEAST, 0.6,
                "≥ 60 %", UNIT);
        BenchSuite.row(rows, sluicePg + ", Sluice", pg, null, "—", Compare.AT_LEAST, 100_000, "≥ 100,000 events/s", UNIT);
        BenchSuite.row(rows, "hot path into an H2 file, events/s (" + what + "), Sluice", List.of(r.h2().eventsPerSecond()), null, "—",
                Compare.AT_LEAST, 50_000, "≥ 50,000 events/s", UNIT);
        for (SluiceSinkRun.Latency l : r.postgresLatency()) {
            String connect = "";
            if (r.connect() != null) {
                for (double[] c : r.connect().latency()) {
                    if ((int) c[0] == l.rate()) {
                        connect = String.format(Locale.ROOT, "; Kafka Connect + Debezium at that rate: p50 %.0f, p99 %.0f", c[2], c[3]);
                    }
                }
            }
            BenchSuite.row(rows, String.format(Locale.ROOT, "hot path into PostgreSQL, p99 latency at %,d events/s (sent %,.0f/s), ms"
                    + " (commit minus CreateTime; Sluice p50 %.0f%s)", l.rate(), l.achievedRate(), l.latencies().p50Ms(), connect),
                    List.of(l.latencies().p99Ms()), null, "—", Compare.BELOW, 500, "p99 < 500 ms", "ms");
        }
        String flink = "Flink 2.0.1, 1-hour tumbling window per origin (bounded out-of-orderness = allowed lateness), JDBC upserts of the windows";
        if (r.flink() != null) {
            BenchSuite.row(rows, sluicePg + ": Sluice vs Flink, the windows reference", pg, List.of(r.flink().eventsPerSecond()), flink,
                    Compare.REPORT, 0, "— (reported)", UNIT);
        } else {
            notMeasured(rows, sluicePg + ": Sluice vs Flink, the windows reference", pg, "— (reported)", r.flinkSkipped());
        }
        String connectCpu = r.connect() == null ? "" : String.format(Locale.ROOT, "; under Connect: PostgreSQL %.2f", r.connect().postgresCores());
        BenchSuite.row(rows, String.format(Locale.ROOT, "hot path CPU while draining, cores (1.0 = one core): Sluice's JVM into PostgreSQL"
                + " (PostgreSQL %.2f%s; Sluice's JVM into H2 %.2f)", r.postgres().postgresCores(), connectCpu, r.h2().jvmCores()),
                List.of(r.postgres().jvmCores()), r.connect() == null ? null : List.of(r.connect().workerCores()),
                "the Connect worker's JVM", Compare.REPORT, 0, "— (reported)", "cores");
    }

    /** A row whose baseline was not measured: Sluice's figure, no ratio, {@code met} null, the reason kept. */
    private static void notMeasured(ArrayNode rows, String measure, List<Double> sluice, String goal, String why) {
        BenchSuite.row(rows, measure, sluice, null, "not measured: " + why, Compare.REPORT, 0, goal, UNIT);
        ObjectNode row = (ObjectNode) rows.get(rows.size() - 1);
        row.putNull("met");
        row.put("not_measured", why);
    }
}
