package dev.sluice.lineage.store;

import dev.sluice.lineage.store.LineageRepository.Edge;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Table;
import org.jooq.exception.IntegrityConstraintViolationException;
import org.jooq.impl.DSL;

/**
 * {@code sluice.lineage_graph}: the dataset graph of the lineage edges, one row per distinct
 * (input_name, output_name, job) of {@link LineageRepository#EDGES} with input_namespace,
 * output_namespace, first_seen and last_seen (the edges' event times, UTC), and ingested (the job
 * is another tool's, whose events were posted to {@code sluice serve}). Years of hourly runs
 * are millions of edges but a graph of a few hundred rows: the closures walk this table.
 * {@link LineageRepository} writes a row with each edge, in the edge's transaction; a purge that
 * deletes edges brings it back in line ({@link #prune}). Thread-safe (a new edge inserted by two
 * writers at once is stored once).
 */
public final class DatasetGraph {

    /** {@code sluice.lineage_graph}. */
    public static final Table<?> GRAPH = DSL.table(DSL.name("sluice", "lineage_graph"));
    private static final Field<String> INPUT = DSL.field(DSL.name("input_name"), String.class);
    private static final Field<String> OUTPUT = DSL.field(DSL.name("output_name"), String.class);
    private static final Field<String> JOB = DSL.field(DSL.name("job"), String.class);
    private static final Field<OffsetDateTime> FIRST_SEEN = DSL.field(DSL.name("first_seen"), OffsetDateTime.class);
    private static final Field<OffsetDateTime> LAST_SEEN = DSL.field(DSL.name("last_seen"), OffsetDateTime.class);
    private static final Field<Boolean> INGESTED = DSL.field(DSL.name("ingested"), Boolean.class);

    private final DSLContext dsl;

    DatasetGraph(DSLContext dsl) {
        this.dsl = dsl;
    }

    /**
     * Records the edge {@code input → output} by {@code job} (its full name; another tool's when
     * {@code ingested}) seen at {@code at}: last_seen moves on, first_seen back; a new edge is
     * inserted in a savepoint, so that another process inserting it at the same moment leaves the
     * caller's transaction whole.
     */
    void record(String input, String output, String job, boolean ingested, String inputNamespace, String outputNamespace, OffsetDateTime at) {
        Condition key = INPUT.eq(input).and(OUTPUT.eq(output)).and(JOB.eq(job));
        if (seen(key, at) > 0) {
            return;
        }
        try {
            dsl.transaction(nested -> nested.dsl().insertInto(GRAPH).set(INPUT, input).set(OUTPUT, output).set(JOB, job).set(INGESTED, ingested)
                    .set(DSL.field(DSL.name("input_namespace"), String.class), inputNamespace)
                    .set(DSL.field(DSL.name("output_namespace"), String.class), outputNamespace)
                    .set(FIRST_SEEN, at).set(LAST_SEEN, at).execute());
        } catch (IntegrityConstraintViolationException raced) {
            seen(key, at); // another writer inserted it first
        }
    }

    private int seen(Condition key, OffsetDateTime at) {
        return dsl.update(GRAPH).set(LAST_SEEN, DSL.greatest(LAST_SEEN, DSL.val(at))).set(FIRST_SEEN, DSL.least(FIRST_SEEN, DSL.val(at)))
                .where(key).execute();
    }

    /** True when some edge reads or writes {@code dataset}. */
    boolean knows(String dataset) {
        return dsl.fetchExists(DSL.selectOne().from(GRAPH).where(INPUT.eq(dataset)))
                || dsl.fetchExists(DSL.selectOne().from(GRAPH).where(OUTPUT.eq(dataset)));
    }

    /** Those of {@code datasets} that feed at least one other dataset. */
    Set<String> feeding(Collection<String> datasets) {
        return new HashSet<>(dsl.selectDistinct(INPUT).from(GRAPH).where(INPUT.in(datasets)).fetch(INPUT));
    }

    /**
     * The edges upstream ({@code up}) or downstream of {@code dataset}, level by level (one query of
     * the graph per level, for the whole level), at most {@code depth} levels, in discovery order
     * (within a level by input, output, job); the job as {@link #shown shown}.
     */
    List<Edge> walk(String dataset, int depth, boolean up) {
        Map<String, Edge> edges = new LinkedHashMap<>();
        Set<String> seen = new LinkedHashSet<>(List.of(dataset));
        Set<String> frontier = Set.of(dataset);
        for (int level = 0; level < depth && !frontier.isEmpty(); level++) {
            var rows = dsl.select(INPUT, OUTPUT, JOB, INGESTED).from(GRAPH).where((up ? OUTPUT : INPUT).in(frontier))
                    .orderBy(INPUT, OUTPUT, JOB).fetch();
            Set<String> next = new LinkedHashSet<>();
            for (var r : rows) {
                Edge e = new Edge(r.value1(), r.value2(), shown(r.value3(), Boolean.TRUE.equals(r.value4())));
                edges.putIfAbsent(e.from() + "→" + e.to(), e);
                String other = up ? e.from() : e.to();
                if (seen.add(other)) {
                    next.add(other);
                }
            }
            frontier = next;
        }
        return new ArrayList<>(edges.values());
    }

    /**
     * A job as the queries show it: Sluice's own step job by its pipeline, without the step's
     * dataset ({@code flights.silver.flights} → {@code flights}); another tool's job ({@code ingested})
     * whole, dots and all (dbt's {@code model.jaffle_shop.orders}).
     */
    static String shown(String job, boolean ingested) {
        int dot = job.indexOf('.');
        return ingested || dot < 0 ? job : job.substring(0, dot);
    }

    /** The jobs of the edges {@code input} feeds, as {@link #shown shown}, by {@code output + "\n" + job}. */
    Map<String, String> shownJobs(String input) {
        Map<String, String> out = new HashMap<>();
        dsl.select(OUTPUT, JOB, INGESTED).from(GRAPH).where(INPUT.eq(input))
                .forEach(r -> out.put(r.value1() + "\n" + r.value2(), shown(r.value2(), Boolean.TRUE.equals(r.value3()))));
        return out;
    }

    /**
     * The graph's edges (input, output, the job's full name) of the lineage edges {@code where}
     * selects (a condition on {@link LineageRepository#EDGES} aliased {@code e}): what
     * {@link #prune} is to look at once those are deleted.
     */
    public static Set<Edge> of(DSLContext dsl, Condition where) {
        Set<Edge> out = new LinkedHashSet<>();
        dsl.selectDistinct(INPUT, OUTPUT, JOB).from(LineageRepository.EDGES.as("e")).where(where)
                .forEach(r -> out.add(new Edge(r.value1(), r.value2(), r.value3())));
        return out;
    }

    /**
     * Brings the graph back in line with the edges after some were deleted, in the caller's
     * transaction: each of {@code touched} (from {@link #of}, before the delete) that no edge refers
     * to any more goes; the others get first_seen again from the edges left.
     *
     * @param tx the purge's transaction
     * @return rows of the graph removed
     */
    public static int prune(DSLContext tx, Set<Edge> touched) {
        int removed = 0;
        for (Edge e : touched) {
            Condition key = INPUT.eq(e.from()).and(OUTPUT.eq(e.to())).and(JOB.eq(e.job()));
            OffsetDateTime first = tx.select(DSL.min(DSL.field(DSL.name("event_time"), OffsetDateTime.class))).from(LineageRepository.EDGES)
                    .where(key).fetchOne(0, OffsetDateTime.class);
            if (first == null) {
                removed += tx.deleteFrom(GRAPH).where(key).execute();
            } else {
                tx.update(GRAPH).set(FIRST_SEEN, first).where(key).execute();
            }
        }
        return removed;
    }

    /** Rows of the graph that {@link #prune} would remove: those of {@code touched} with no edge left besides {@code deleted}. */
    public static int wouldPrune(DSLContext dsl, Set<Edge> touched, Condition deleted) {
        int n = 0;
        for (Edge e : touched) {
            Condition key = INPUT.eq(e.from()).and(OUTPUT.eq(e.to())).and(JOB.eq(e.job()));
            if (!dsl.fetchExists(DSL.selectOne().from(LineageRepository.EDGES.as("e")).where(key, DSL.not(deleted)))) {
                n++;
            }
        }
        return n;
    }
}
