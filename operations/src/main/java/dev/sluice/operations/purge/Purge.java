package dev.sluice.operations.purge;

import dev.sluice.engine.Housekeeping;
import dev.sluice.engine.LayerEngines;
import dev.sluice.control.landing.LandedFileRepository;
import dev.sluice.control.run.RunRepository;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.Layer;
import dev.sluice.core.Partition;
import dev.sluice.lineage.store.LineageRepository;
import dev.sluice.warehouse.Warehouse;
import dev.sluice.warehouse.meta.MissedPartitionTable;
import dev.sluice.warehouse.meta.PartitionVersionTable;
import dev.sluice.warehouse.meta.PublishedPartitionTable;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record2;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

/**
 * {@code sluice purge}: removes what a pipeline no longer needs, older than a cutoff
 * ({@code now − olderThan}) and never of a partition inside the pipeline's backfill window (from
 * today back by {@code backfill_window}; without a window every partition is kept):
 * <ul>
 *   <li>superseded Silver/Gold partition versions (kept for rollback) written before the cutoff: those
 *       older than the published version, never the published one nor a newer one (written but awaiting
 *       its gate or its restart, or rolled back from);</li>
 *   <li>Bronze rows of superseded loads (a file replaced by a newer one) loaded before the cutoff
 *       and before the table's declared {@code retention}:
 *       the current load of every partition, raw, stays ({@code sluice.landed_file} keeps the record
 *       of every file that landed);</li>
 *   <li>lineage events, edges and column lineage of step and job runs before the cutoff, except the
 *       newest edges of each output partition, so that what is published still has its lineage (the
 *       dataset graph loses the edges no run refers to any more);</li>
 *   <li>Spring Batch metadata of job instances whose attempt ended COMPLETED or ABANDONED before
 *       the cutoff ({@code sluice.run} keeps the history of every attempt), and MISSED partition
 *       records older than the cutoff.</li>
 * </ul>
 * On a lakehouse pipeline the superseded Bronze loads are deleted from the Iceberg tables, a
 * superseded version is its record and its branch, and the tables' snapshots older than the cutoff
 * go too (the engine's {@code Housekeeping#purgeStorage}: snapshots are per table, so that ends time travel to before the
 * cutoff for every partition), and their orphan files older than the grace period. Quartz keeps no history (a fired trigger's row goes when
 * it completes), so there is none to purge. Lineage other tools posted is purged apart
 * ({@link IngestedLineagePurge}). Each category is one transaction. Thread-safe for distinct pipelines.
 */
public final class Purge {

    private final Warehouse warehouse;
    private final Clock clock;

    private static final Table<?> VERSIONS = PartitionVersionTable.TABLE;
    private static final Table<?> PUBLISHED = PublishedPartitionTable.TABLE;
    private static final Field<String> DATASET = DSL.field(DSL.name("dataset"), String.class);
    private static final Field<String> KEY = DSL.field(DSL.name("partition_key"), String.class);
    private static final Field<Integer> VERSION = DSL.field(DSL.name("version"), Integer.class);

    public Purge(Warehouse warehouse, Clock clock) {
        this.warehouse = warehouse;
        this.clock = clock;
    }

    /**
     * What a purge removed (or, in a dry run, would remove), in rows per category.
     *
     * @param cutoff records older than this went
     * @param windowStart partitions from this date on were kept whatever their age (null: no window, all kept)
     * @param removed rows per category, in the order above
     */
    public record Report(OffsetDateTime cutoff, @Nullable LocalDate windowStart, Map<String, Long> removed) {
    }

    /**
     * The default grace period of orphan files ({@code sluice purge --orphan-grace}): 3 days, as
     * Iceberg's {@code DeleteOrphanFiles} action's default, far longer than any write in flight.
     */
    public static final Duration DEFAULT_ORPHAN_GRACE = Duration.ofDays(3);

    /** Purges {@code spec}'s records older than {@code olderThan}, orphan files after {@link #DEFAULT_ORPHAN_GRACE}. */
    public Report run(PipelineSpec spec, Duration olderThan, boolean dryRun) {
        return run(spec, olderThan, DEFAULT_ORPHAN_GRACE, dryRun);
    }

    /**
     * Purges {@code spec}'s records older than {@code olderThan}; on a lakehouse pipeline also the
     * orphan files last modified more than {@code orphanGrace} ago, whatever {@code olderThan} (a
     * younger file may be a write in flight, not yet committed).
     *
     * @param dryRun count only
     * @throws IllegalArgumentException when {@code olderThan} or {@code orphanGrace} is negative
     */
    public Report run(PipelineSpec spec, Duration olderThan, Duration orphanGrace, boolean dryRun) {
        if (olderThan.isNegative()) {
            throw new IllegalArgumentException("--older-than is negative");
        }
        if (orphanGrace.isNegative()) {
            throw new IllegalArgumentException("--orphan-grace is negative");
        }
        OffsetDateTime cutoff = OffsetDateTime.now(clock.withZone(ZoneOffset.UTC)).minus(olderThan);
        LocalDate windowStart = spec.backfillWindow() == null ? null
                : LocalDate.now(clock.withZone(ZoneOffset.UTC)).minus(spec.backfillWindow());
        Map<String, Long> removed = new LinkedHashMap<>();
        if (windowStart == null) {
            for (String c : List.of("superseded versions", "superseded Bronze loads", "lineage events", "lineage edges",
                    "Spring Batch job instances", "missed partition records")) {
                removed.put(c, 0L);
            }
            return new Report(cutoff, null, removed);
        }
        DSLContext dsl = warehouse.dsl();
        Housekeeping engine = LayerEngines.on(warehouse).forPipeline(spec);
        removed.put("superseded versions", inTransaction(dryRun, tx -> versions(tx, spec, cutoff, windowStart, dryRun, engine)));
        removed.put("superseded Bronze loads", inTransaction(dryRun, tx -> bronze(tx, spec, cutoff, windowStart, dryRun, engine)));
        removed.putAll(engine.purgeStorage(cutoff.toInstant(), clock.instant().minus(orphanGrace), dryRun));
        long[] lineage = lineage(dsl, spec, cutoff, windowStart, dryRun);
        removed.put("lineage events", lineage[0]);
        removed.put("lineage edges", lineage[1]);
        removed.put("Spring Batch job instances", inTransaction(dryRun, tx -> batch(tx, spec, cutoff, windowStart, dryRun)));
        Condition missed = DSL.field(DSL.name("pipeline")).eq(spec.name())
                .and(DSL.field(DSL.name("recorded_at"), OffsetDateTime.class).lt(cutoff));
        Table<?> missedTable = MissedPartitionTable.TABLE;
        List<String> missedKeys = outside(dsl.selectDistinct(DSL.field(DSL.name("partition_key"), String.class)).from(missedTable)
                .where(missed).fetch(0, String.class), windowStart);
        Condition m = missed.and(DSL.field(DSL.name("partition_key")).in(missedKeys));
        removed.put("missed partition records", (long) (dryRun ? dsl.fetchCount(missedTable, m) : dsl.deleteFrom(missedTable).where(m).execute()));
        return new Report(cutoff, windowStart, removed);
    }

    private long inTransaction(boolean dryRun, ToLongFunction<DSLContext> work) {
        if (dryRun) {
            return work.applyAsLong(warehouse.dsl());
        }
        return warehouse.dsl().transactionResult(c -> work.applyAsLong(c.dsl()));
    }

    /** The keys of partitions that end before {@code windowStart} ('none' and other keys with no date are kept). */
    static List<String> outside(List<String> keys, LocalDate windowStart) {
        LocalDateTime limit = windowStart.atStartOfDay();
        List<String> out = new ArrayList<>();
        for (String k : keys) {
            String key = k.contains("..") ? k.substring(k.indexOf("..") + 2) : k; // a backfill's range: its last partition
            LocalDateTime start = new Partition(key).nominalStart();
            LocalDateTime end = new Partition(key).nominalEnd();
            // a reference snapshot ('none') serves every partition, those inside the window too: kept
            boolean before = start != null && end != null && (end.isAfter(start) ? !end.isAfter(limit) : start.isBefore(limit));
            if (before) {
                out.add(k);
            }
        }
        return out;
    }

    private long versions(DSLContext dsl, PipelineSpec spec, OffsetDateTime cutoff, LocalDate windowStart, boolean dryRun,
            Housekeeping engine) {
        long n = 0;
        for (TableSpec t : spec.tables()) {
            if (t.layer() == Layer.BRONZE) {
                continue;
            }
            String name = t.table().qualifiedName();
            Map<String, Integer> published = new HashMap<>();
            dsl.select(KEY, VERSION).from(PUBLISHED).where(DATASET.eq(name)).forEach(r -> published.put(r.value1(), r.value2()));
            // versions written before the cutoff and older than the published one (a partition never published keeps all;
            // a newer one is awaiting its gate or its restart, or was rolled back from: kept until a later version is published)
            List<Record2<String, Integer>> superseded = dsl.select(KEY, VERSION).from(VERSIONS)
                    .where(DATASET.eq(name), DSL.field(DSL.name("published_at"), OffsetDateTime.class).lt(cutoff)).fetch().stream()
                    .filter(r -> published.containsKey(r.value1()) && r.value2() < published.get(r.value1())).toList();
            List<String> keys = outside(superseded.stream().map(r -> r.value1()).distinct().toList(), windowStart);
            for (Record r : superseded) {
                if (!keys.contains(r.get(KEY))) {
                    continue; // inside the backfill window
                }
                Condition version = DATASET.eq(name).and(KEY.eq(r.get(KEY))).and(VERSION.eq(r.get(VERSION)));
                // the version's data (rows, or a lakehouse branch) is the engine's; its record is the control plane's
                n += engine.purgeVersion(dsl, t, r.get(KEY), r.get(VERSION), dryRun);
                if (!dryRun) {
                    dsl.deleteFrom(VERSIONS).where(version).execute();
                }
            }
        }
        return n;
    }

    private long bronze(DSLContext dsl, PipelineSpec spec, OffsetDateTime cutoff, LocalDate windowStart, boolean dryRun,
            Housekeeping engine) {
        long n = 0;
        Table<?> landed = LandedFileRepository.LANDED_FILES;
        for (TableSpec t : spec.tables(Layer.BRONZE)) {
            String name = t.table().qualifiedName();
            // the table's declared retention is a floor: nothing younger goes, whatever --older-than says
            OffsetDateTime before = t.retention() == null ? cutoff
                    : Collections.min(List.of(cutoff, OffsetDateTime.now(clock.withZone(ZoneOffset.UTC)).minus(t.retention())));
            var loads = dsl.select(KEY, DSL.field(DSL.name("source"), String.class), DSL.field(DSL.name("run_id"), String.class)).from(landed)
                    .where(DSL.field(DSL.name("bronze_table")).eq(name), DSL.field(DSL.name("current_load"), Boolean.class).isFalse(),
                            DSL.field(DSL.name("loaded_at"), OffsetDateTime.class).lt(before))
                    .fetch();
            List<String> keys = outside(loads.stream().map(r -> r.value1()).distinct().toList(), windowStart);
            for (var r : loads) {
                if (keys.contains(r.value1())) {
                    n += engine.purgeBronzeLoad(dsl, t, r.value1(), r.value2(), r.value3(), dryRun);
                }
            }
        }
        return n;
    }

    /** Lineage of this pipeline's jobs (its step jobs are named {@code <pipeline>.<step>}). */
    private long[] lineage(DSLContext dsl, PipelineSpec spec, OffsetDateTime cutoff, LocalDate windowStart, boolean dryRun) {
        Field<String> job = DSL.field(DSL.name("job"), String.class);
        Field<OffsetDateTime> time = DSL.field(DSL.name("event_time"), OffsetDateTime.class);
        Condition ours = job.eq(spec.name()).or(job.like(spec.name() + ".%"));
        Table<?> events = LineageRepository.EVENTS;
        Table<?> edges = LineageRepository.EDGES;
        List<String> eventKeys = outside(dsl.selectDistinct(KEY).from(events).where(ours, time.lt(cutoff)).fetch(KEY), windowStart);
        Condition oldEvents = ours.and(time.lt(cutoff)).and(KEY.in(eventKeys));
        // edges: keep the newest run's edges of every output partition
        Field<String> output = DSL.field(DSL.name("output_name"), String.class);
        var newest = DSL.select(DSL.max(time)).from(edges.as("n"))
                .where(DSL.field(DSL.name("n", "output_name")).eq(DSL.field(DSL.name("e", "output_name"))),
                        DSL.field(DSL.name("n", "partition_key")).eq(DSL.field(DSL.name("e", "partition_key"))));
        List<String> edgeKeys = outside(dsl.selectDistinct(KEY).from(edges).where(ours, time.lt(cutoff)).fetch(KEY), windowStart);
        Condition oldEdges = DSL.condition(ours).and(time.lt(cutoff)).and(KEY.in(edgeKeys)).and(time.lt(newest.asField()));
        if (dryRun) {
            return new long[] {dsl.fetchCount(events, oldEvents), dsl.fetchCount(edges.as("e"), oldEdges)};
        }
        return warehouse.dsl().transactionResult(c -> {
            DSLContext tx = c.dsl();
            List<String> runs = tx.selectDistinct(DSL.field(DSL.name("run_id"), String.class)).from(edges.as("e")).where(oldEdges)
                    .fetch(0, String.class);
            var touched = dev.sluice.lineage.store.DatasetGraph.of(tx, oldEdges);
            long e = tx.deleteFrom(edges.as("e")).where(oldEdges).execute();
            dev.sluice.lineage.store.DatasetGraph.prune(tx, touched); // an input no run left reads any more leaves the graph
            // column lineage of runs that kept no edge
            for (int i = 0; i < runs.size(); i += 500) {
                List<String> some = runs.subList(i, Math.min(runs.size(), i + 500));
                tx.deleteFrom(LineageRepository.COLUMNS).where(DSL.field(DSL.name("run_id")).in(some))
                        .andNotExists(DSL.selectOne().from(edges.as("k")).where(DSL.field(DSL.name("k", "run_id"))
                                .eq(DSL.field(DSL.name(LineageRepository.COLUMNS.getQualifiedName(), DSL.name("run_id")))))).execute();
            }
            long v = tx.deleteFrom(events).where(oldEvents).execute();
            return new long[] {v, e};
        });
    }

    private long batch(DSLContext dsl, PipelineSpec spec, OffsetDateTime cutoff, LocalDate windowStart, boolean dryRun) {
        String p = Warehouse.METADATA_SCHEMA + ".BATCH_";
        var ended = dsl.select(KEY, DSL.field(DSL.name("job_execution_id"), Long.class)).from(RunRepository.TABLE)
                .where(DSL.field(DSL.name("pipeline")).eq(spec.name()), DSL.field(DSL.name("status")).in("COMPLETED", "ABANDONED"),
                        DSL.field(DSL.name("ended_at"), OffsetDateTime.class).lt(cutoff), DSL.field(DSL.name("job_execution_id")).isNotNull())
                .fetch();
        List<String> keys = outside(ended.stream().map(r -> r.value1()).distinct().toList(), windowStart);
        List<Long> endedExecutions = ended.stream().filter(r -> keys.contains(r.value1())).map(r -> r.value2()).toList();
        List<Long> instances = new ArrayList<>();
        for (int i = 0; i < endedExecutions.size(); i += 500) {
            instances.addAll(dsl.resultQuery("SELECT DISTINCT JOB_INSTANCE_ID FROM " + p + "JOB_EXECUTION WHERE JOB_EXECUTION_ID IN ("
                    + String.join(",", endedExecutions.subList(i, Math.min(endedExecutions.size(), i + 500)).stream().map(String::valueOf).toList())
                    + ")")
                    .fetch(0, Long.class));
        }
        if (dryRun || instances.isEmpty()) {
            return instances.size();
        }
        for (int i = 0; i < instances.size(); i += 500) {
            String in = String.join(",", instances.subList(i, Math.min(instances.size(), i + 500)).stream().map(String::valueOf).toList());
            String executions = "SELECT JOB_EXECUTION_ID FROM " + p + "JOB_EXECUTION WHERE JOB_INSTANCE_ID IN (" + in + ")";
            String steps = "SELECT STEP_EXECUTION_ID FROM " + p + "STEP_EXECUTION WHERE JOB_EXECUTION_ID IN (" + executions + ")";
            dsl.execute("DELETE FROM " + p + "STEP_EXECUTION_CONTEXT WHERE STEP_EXECUTION_ID IN (" + steps + ")");
            dsl.execute("DELETE FROM " + p + "STEP_EXECUTION WHERE JOB_EXECUTION_ID IN (" + executions + ")");
            dsl.execute("DELETE FROM " + p + "JOB_EXECUTION_CONTEXT WHERE JOB_EXECUTION_ID IN (" + executions + ")");
            dsl.execute("DELETE FROM " + p + "JOB_EXECUTION_PARAMS WHERE JOB_EXECUTION_ID IN (" + executions + ")");
            dsl.execute("DELETE FROM " + p + "JOB_EXECUTION WHERE JOB_INSTANCE_ID IN (" + in + ")");
            dsl.execute("DELETE FROM " + p + "JOB_INSTANCE WHERE JOB_INSTANCE_ID IN (" + in + ")");
        }
        dsl.update(RunRepository.TABLE).setNull(DSL.field(DSL.name("job_execution_id")))
                .where(DSL.field(DSL.name("job_execution_id")).notIn(DSL.select(DSL.field(DSL.name("JOB_EXECUTION_ID")))
                        .from(DSL.table(DSL.unquotedName("sluice", "BATCH_JOB_EXECUTION")))))
                .and(DSL.field(DSL.name("pipeline")).eq(spec.name())).execute();
        return instances.size();
    }
}
