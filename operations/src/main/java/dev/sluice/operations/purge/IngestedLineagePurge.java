package dev.sluice.operations.purge;

import dev.sluice.lineage.store.DatasetGraph;
import dev.sluice.lineage.store.LineageRepository;
import dev.sluice.lineage.store.LineageRuns;
import dev.sluice.warehouse.Warehouse;
import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * {@code sluice purge <pipeline> --older-than D --ingested-lineage}: removes the lineage other
 * tools posted to {@code sluice serve} ({@code POST /api/v1/lineage}) of runs that ended before
 * the cutoff ({@code now − D}; a run with no end, by its start): each such run, its events, its
 * dataset edges, its column lineage and the datasets it named. The dataset graph keeps every edge
 * some run still refers to (Sluice's own runs or ingested ones left). Sluice's own lineage is not
 * touched (the plain purge does that, within the backfill window's rules). One transaction.
 * Thread-safe.
 */
public final class IngestedLineagePurge {

    /** The report's categories, in its order. */
    public static final List<String> CATEGORIES = List.of("ingested runs", "ingested events", "ingested edges", "ingested column lineage",
            "lineage graph edges");
    private static final int BATCH = 500;
    private static final Field<String> RUN = DSL.field(DSL.name("run_id"), String.class);

    private final Warehouse warehouse;
    private final Clock clock;

    public IngestedLineagePurge(Warehouse warehouse, Clock clock) {
        this.warehouse = warehouse;
        this.clock = clock;
    }

    /**
     * What was removed (or, in a dry run, would be), in rows per category of {@link #CATEGORIES}.
     *
     * @param cutoff runs that ended before this went (UTC)
     */
    public record Report(OffsetDateTime cutoff, Map<String, Long> removed) {
    }

    /**
     * Purges the ingested lineage of runs older than {@code olderThan}.
     *
     * @param dryRun count only
     * @throws IllegalArgumentException when {@code olderThan} is negative
     */
    public Report run(Duration olderThan, boolean dryRun) {
        if (olderThan.isNegative()) {
            throw new IllegalArgumentException("--older-than is negative");
        }
        OffsetDateTime cutoff = OffsetDateTime.now(clock.withZone(ZoneOffset.UTC)).minus(olderThan);
        if (dryRun) {
            return new Report(cutoff, purge(warehouse.dsl(), cutoff, true));
        }
        return new Report(cutoff, warehouse.dsl().transactionResult(c -> purge(c.dsl(), cutoff, false)));
    }

    private static Map<String, Long> purge(DSLContext dsl, OffsetDateTime cutoff, boolean dryRun) {
        Field<OffsetDateTime> ended = DSL.coalesce(DSL.field(DSL.name("ended_at"), OffsetDateTime.class),
                DSL.field(DSL.name("started_at"), OffsetDateTime.class));
        List<String> runs = dsl.select(RUN).from(LineageRuns.RUNS).where(ended.lt(cutoff)).orderBy(RUN).fetch(RUN);
        long[] n = new long[CATEGORIES.size()];
        Set<LineageRepository.Edge> touched = new LinkedHashSet<>();
        List<Condition> deleted = new ArrayList<>();
        for (int i = 0; i < runs.size(); i += BATCH) {
            List<String> some = runs.subList(i, Math.min(runs.size(), i + BATCH));
            Condition edges = DSL.field(DSL.name("e", "run_id"), String.class).in(some);
            touched.addAll(DatasetGraph.of(dsl, edges));
            deleted.add(edges);
            if (dryRun) {
                n[0] += dsl.fetchCount(LineageRuns.RUNS, RUN.in(some));
                n[1] += dsl.fetchCount(LineageRepository.EVENTS, RUN.in(some));
                n[2] += dsl.fetchCount(LineageRepository.EDGES, RUN.in(some));
                n[3] += dsl.fetchCount(LineageRepository.COLUMNS, RUN.in(some));
                continue;
            }
            n[3] += dsl.deleteFrom(LineageRepository.COLUMNS).where(RUN.in(some)).execute();
            n[2] += dsl.deleteFrom(LineageRepository.EDGES).where(RUN.in(some)).execute();
            n[1] += dsl.deleteFrom(LineageRepository.EVENTS).where(RUN.in(some)).execute();
            dsl.deleteFrom(LineageRuns.DATASETS).where(RUN.in(some)).execute();
            n[0] += dsl.deleteFrom(LineageRuns.RUNS).where(RUN.in(some)).execute();
        }
        n[4] = dryRun ? DatasetGraph.wouldPrune(dsl, touched, DSL.or(deleted)) : DatasetGraph.prune(dsl, touched);
        Map<String, Long> out = new LinkedHashMap<>();
        for (int i = 0; i < n.length; i++) {
            out.put(CATEGORIES.get(i), n[i]);
        }
        return out;
    }
}
