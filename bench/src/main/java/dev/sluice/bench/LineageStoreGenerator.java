package dev.sluice.bench;

import dev.sluice.lineage.store.DatasetGraph;
import dev.sluice.lineage.store.LineageRepository;
import dev.sluice.lineage.store.LineageRuns;
import dev.sluice.warehouse.Warehouse;
import dev.sluice.warehouse.meta.PublishedPartitionTable;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.UUID;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * Writes a lineage store of {@code runs} recorded runs the way years of hourly pipelines leave it,
 * straight into the tables (batched inserts, not the event API: a million runs in about a minute).
 * {@value #PIPELINES} pipelines from 2026-01-01T00 on, hour by hour; pipeline {@code pNNN} has:
 * <ul>
 *   <li>an ingest job of another tool (Airflow-like, ingested through {@code POST /api/v1/lineage}):
 *       {@code src.pNNN_orders → raw.pNNN_orders} per hour, START and COMPLETE events, every 100th
 *       run a FAIL (a run with an error message and no edge);</li>
 *   <li>a daily snapshot {@code src.pNNN_customers → raw.pNNN_customers} (read as {@code none});</li>
 *   <li>a refine (fan-in) {@code raw.pNNN_orders} hour + {@code raw.pNNN_customers} none →
 *       {@code silver.pNNN_orders}, and its audit → {@code audit.pNNN_orders_checks}, per hour;</li>
 *   <li>a join with fan-out: {@code silver.pNNN_orders} + the previous pipeline's silver orders →
 *       {@code gold.pNNN_revenue} and {@code gold.pNNN_margin}, per hour;</li>
 *   <li>a daily rollup of the 24 hours of {@code gold.pNNN_revenue} → {@code gold.pNNN_revenue_daily},
 *       and a monthly rollup of its days → {@code gold.pNNN_revenue_monthly};</li>
 * </ul>
 * and once a month {@code finance.company_monthly} rolls up every pipeline's month (a fan-in of
 * {@value #PIPELINES}). Sluice's step runs have a job run as parent and publish each output
 * partition ({@code sluice.published_partition}). A run is one ingested run or one step run; the
 * last hour is cut where the count is reached. The graph ({@link DatasetGraph#GRAPH}) is filled
 * from the edges at the end, as the V28 migration does. Not thread-safe (one store per call).
 */
public final class LineageStoreGenerator {

    /** Pipelines of the store. */
    public static final int PIPELINES = 120;
    /** The first hour of the store. */
    public static final LocalDateTime START = LocalDateTime.parse("2026-01-01T00:00");
    private static final DateTimeFormatter HOUR = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH", Locale.ROOT);
    private static final int FLUSH = 20_000;

    /** What was written: runs (ingested + step), edges, events, published partitions, the graph's rows, the hours covered. */
    public record Store(long runs, long ingestedRuns, long edges, long events, long published, long graphEdges, long hours) {
    }

    private final Connection c;
    private final PreparedStatement edge;
    private final PreparedStatement event;
    private final PreparedStatement run;
    private final PreparedStatement runDataset;
    private final PreparedStatement publish;
    private long runs;
    private long ingested;
    private long edges;
    private long events;
    private long published;
    private long ids;
    private int pending;

    private LineageStoreGenerator(Connection c, DSLContext dsl) throws SQLException {
        this.c = c;
        this.edge = c.prepareStatement("INSERT INTO " + dsl.render(LineageRepository.EDGES) + " (run_id, parent_run_id, job, partition_key,"
                + " input_namespace, input_name, output_namespace, output_name, output_version, output_rows, event_time,"
                + " input_partition_from, input_partition_to, input_range_to) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        this.event = c.prepareStatement("INSERT INTO " + dsl.render(LineageRepository.EVENTS) + " (run_id, parent_run_id, job, event_type,"
                + " event_time, partition_key, event_json, body_sha256) VALUES (?, NULL, ?, ?, ?, ?, ?, ?)");
        this.run = c.prepareStatement("INSERT INTO " + dsl.render(LineageRuns.RUNS) + " (run_id, namespace, job, state, partition_key,"
                + " nominal_start_time, nominal_end_time, error_message, started_at, ended_at, events, facets_json)"
                + " VALUES (?, 'airflow', ?, ?, ?, ?, ?, ?, ?, ?, 2, '{}')");
        this.runDataset = c.prepareStatement("INSERT INTO " + dsl.render(LineageRuns.DATASETS) + " (run_id, role, name) VALUES (?, ?, ?)");
        this.publish = c.prepareStatement("INSERT INTO " + dsl.render(PublishedPartitionTable.TABLE)
                + " (dataset, partition_key, version, run_id, published_at) VALUES (?, ?, 1, ?, ?)");
    }

    /**
     * Writes {@code runs} runs into {@code warehouse}'s (migrated, empty) lineage store.
     *
     * @throws SQLException when an insert fails
     */
    public static Store generate(Warehouse warehouse, long runs) throws SQLException {
        DSLContext dsl = warehouse.dsl();
        try (Connection c = warehouse.dataSource().getConnection()) {
            c.setAutoCommit(false);
            LineageStoreGenerator g = new LineageStoreGenerator(c, dsl);
            long hours = g.fill(runs);
            g.flush();
            c.commit();
            long graphEdges = graphFromEdges(DSL.using(c, dsl.dialect(), dsl.settings()));
            c.commit();
            return new Store(g.runs, g.ingested, g.edges, g.events, g.published, graphEdges, hours);
        }
    }

    /**
     * Fills the (empty) graph from the edges, as the V28 migration does for a store written before
     * it: for stores written straight into the edges table. On PostgreSQL also ANALYZEs, as
     * autovacuum would after a bulk load.
     *
     * @return rows of the graph
     */
    public static long graphFromEdges(DSLContext dsl) {
        long n = dsl.execute("INSERT INTO " + dsl.render(DatasetGraph.GRAPH) + " (input_name, output_name, job, input_namespace, output_namespace,"
                + " first_seen, last_seen) SELECT input_name, output_name, job, MIN(input_namespace), MIN(output_namespace),"
                + " MIN(event_time), MAX(event_time) FROM " + dsl.render(LineageRepository.EDGES) + " GROUP BY input_name, output_name, job");
        if (dsl.dialect().family() == org.jooq.SQLDialect.POSTGRES) {
            dsl.execute("ANALYZE");
        }
        return n;
    }

    private long fill(long target) throws SQLException {
        long hours = 0;
        for (LocalDateTime h = START; runs < target; h = h.plusHours(1), hours++) {
            String hour = h.format(HOUR);
            Instant at = h.plusMinutes(50).toInstant(ZoneOffset.UTC);
            boolean endOfDay = h.getHour() == 23;
            boolean endOfMonth = endOfDay && h.getDayOfMonth() == h.toLocalDate().lengthOfMonth();
            for (int p = 0; p < PIPELINES && runs < target; p++) {
                String n = String.format(Locale.ROOT, "p%03d", p);
                String previous = String.format(Locale.ROOT, "p%03d", (p + PIPELINES - 1) % PIPELINES);
                ingest(n, hour, h.toInstant(ZoneOffset.UTC), at);
                String parent = id();
                if (h.getHour() == 0) {
                    step(parent, n + ".raw.customers", hour.substring(0, 10), at, "src." + n + "_customers", "none", "none",
                            "raw." + n + "_customers");
                }
                step(parent, n + ".silver.orders", hour, at, "raw." + n + "_orders", hour, hour, "silver." + n + "_orders",
                        "raw." + n + "_customers", "none", "none");
                step(parent, n + ".audit.orders_checks", hour, at, "silver." + n + "_orders", hour, hour, "audit." + n + "_orders_checks");
                join(parent, n, previous, hour, at);
                if (endOfDay) {
                    String day = hour.substring(0, 10);
                    step(parent, n + ".gold.revenue_daily", day, at, "gold." + n + "_revenue", day + "T00", day + "T23", "gold." + n + "_revenue_daily");
                }
                if (endOfMonth) {
                    YearMonth month = YearMonth.from(h);
                    step(parent, n + ".gold.revenue_monthly", month.toString(), at, "gold." + n + "_revenue_daily", month.atDay(1).toString(),
                            month.atEndOfMonth().toString(), "gold." + n + "_revenue_monthly");
                }
            }
            if (endOfMonth && runs < target) {
                companyMonth(YearMonth.from(h), at);
            }
        }
        return hours;
    }

    private String id() {
        return new UUID(0x5100_1ce0_0000_0000L, ++ids).toString();
    }

    /** One hour of another tool's ingest: a run, its two events and datasets, and its edge unless it failed. */
    private void ingest(String n, String hour, Instant start, Instant end) throws SQLException {
        String id = id();
        String job = n + "_ingest";
        boolean failed = (ingested + 1) % 100 == 0;
        run.setString(1, id);
        run.setString(2, job);
        run.setString(3, failed ? "FAIL" : "COMPLETE");
        run.setString(4, hour);
        run.setTimestamp(5, Timestamp.from(start));
        run.setTimestamp(6, Timestamp.from(start.plusSeconds(3600)));
        run.setString(7, failed ? "connection reset by peer while reading src." + n + "_orders" : null);
        run.setTimestamp(8, Timestamp.from(start.plusSeconds(60)));
        run.setTimestamp(9, Timestamp.from(end));
        run.addBatch();
        for (String[] d : new String[][] {{"input", "src." + n + "_orders"}, {"output", "raw." + n + "_orders"}}) {
            runDataset.setString(1, id);
            runDataset.setString(2, d[0]);
            runDataset.setString(3, d[1]);
            runDataset.addBatch();
        }
        for (String type : new String[] {"START", failed ? "FAIL" : "COMPLETE"}) {
            Instant t = type.equals("START") ? start.plusSeconds(60) : end;
            event.setString(1, id);
            event.setString(2, job);
            event.setString(3, type);
            event.setTimestamp(4, Timestamp.from(t));
            event.setString(5, hour);
            event.setString(6, "{\"eventType\":\"" + type + "\",\"eventTime\":\"" + t + "\",\"run\":{\"runId\":\"" + id
                    + "\"},\"job\":{\"namespace\":\"airflow\",\"name\":\"" + job + "\"},\"producer\":\"https://example.org/airflow\"}");
            event.setString(7, String.format(Locale.ROOT, "%064x", events));
            event.addBatch();
            events++;
        }
        runs++;
        ingested++;
        pending += 5;
        if (!failed) {
            edge(id, null, job, hour, "src." + n + "_orders", hour, hour, "h2", "raw." + n + "_orders", end);
        }
        maybeFlush();
    }

    /**
     * A Sluice step run writing {@code output} partition {@code partition}, reading each input
     * given as (name, from, to) after {@code output}.
     */
    private void step(String parent, String job, String partition, Instant at, String input, String from, String to, String output,
            String... more) throws SQLException {
        String id = id();
        edge(id, parent, job, partition, input, from, to, "h2", output, at);
        for (int i = 0; i < more.length; i += 3) {
            edge(id, parent, job, partition, more[i], more[i + 1], more[i + 2], "h2", output, at);
        }
        published(output, partition, id, at);
        runs++;
        maybeFlush();
    }

    /** The join of two pipelines' Silver orders into revenue and margin (fan-in × fan-out: 4 edges). */
    private void join(String parent, String n, String previous, String hour, Instant at) throws SQLException {
        String id = id();
        for (String out : new String[] {"gold." + n + "_revenue", "gold." + n + "_margin"}) {
            for (String in : new String[] {"silver." + n + "_orders", "silver." + previous + "_orders"}) {
                edge(id, parent, n + ".gold.revenue_margin", hour, in, hour, hour, "h2", out, at);
            }
            published(out, hour, id, at);
        }
        runs++;
        maybeFlush();
    }

    /** finance.company_monthly: every pipeline's month, one run. */
    private void companyMonth(YearMonth month, Instant at) throws SQLException {
        String id = id();
        for (int p = 0; p < PIPELINES; p++) {
            edge(id, null, "finance.gold.company_monthly", month.toString(), String.format(Locale.ROOT, "gold.p%03d_revenue_monthly", p),
                    month.toString(), month.toString(), "h2", "finance.company_monthly", at);
        }
        published("finance.company_monthly", month.toString(), id, at);
        runs++;
        maybeFlush();
    }

    private void edge(String runId, String parent, String job, String partition, String input, String from, String to, String outputNamespace,
            String output, Instant at) throws SQLException {
        edge.setString(1, runId);
        edge.setString(2, parent);
        edge.setString(3, job);
        edge.setString(4, partition);
        edge.setString(5, input.startsWith("src.") ? "postgres://src:5432" : "h2");
        edge.setString(6, input);
        edge.setString(7, outputNamespace);
        edge.setString(8, output);
        edge.setString(9, "1");
        edge.setLong(10, 1000 + (edges % 5000));
        edge.setTimestamp(11, Timestamp.from(at));
        edge.setString(12, from);
        edge.setString(13, to);
        edge.setString(14, from.equals(to) ? null : to);
        edge.addBatch();
        edges++;
        pending++;
    }

    private void published(String dataset, String partition, String runId, Instant at) throws SQLException {
        publish.setString(1, dataset);
        publish.setString(2, partition);
        publish.setString(3, runId);
        publish.setTimestamp(4, Timestamp.from(at));
        publish.addBatch();
        published++;
        pending++;
    }

    private void maybeFlush() throws SQLException {
        if (pending >= FLUSH) {
            flush();
            c.commit();
        }
    }

    private void flush() throws SQLException {
        for (PreparedStatement s : new PreparedStatement[] {run, runDataset, event, edge, publish}) {
            s.executeBatch();
        }
        pending = 0;
    }
}
