package dev.sluice.app.serve;

import dev.sluice.control.backfill.BackfillStatus;
import dev.sluice.control.backfill.PartitionStatus;
import static dev.sluice.app.serve.ApiRows.a;
import static dev.sluice.app.serve.ApiRows.f;
import static dev.sluice.app.serve.ApiRows.row;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.control.backfill.BackfillRepository;
import dev.sluice.control.quality.QualityResultRepository;
import dev.sluice.control.run.RunRecord;
import dev.sluice.control.run.RunRepository;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.DatasetRef;
import dev.sluice.lineage.store.LineageRepository;
import dev.sluice.lineage.store.LineageRun;
import dev.sluice.lineage.store.LineageRuns;
import dev.sluice.operations.freshness.DatasetFreshness;
import dev.sluice.operations.freshness.FreshnessMonitor;
import dev.sluice.warehouse.meta.PublishedPartitionTable;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

/**
 * The read-only JSON API of {@code sluice serve} for data owners' pages and scripts, over the
 * lineage store and the Sluice tables (docs/serve.md, "The catalog API"):
 * <ul>
 *   <li>{@code GET /api/v1/status}: is everything all right? Summary counts, a row per pipeline, per
 *       dataset (problems first) and per hot-path partition ({@link StatusOverview} gives the shape);</li>
 *   <li>{@code GET /api/v1/datasets?q=text}: {@code {"datasets": [names]}} containing the text (at most 100);</li>
 *   <li>{@code GET /api/v1/datasets/{name}[?before=<partition>&partitions=N]}: upstream and downstream edges
 *       (3 levels), one page of partitions (newest first, {@code N} of them, default {@value #PAGE}, at most
 *       {@value #MAX_PAGE}; those published or judged, before {@code before} when given): each published
 *       one's version, run and time, and the latest quality result of each check of every partition of the
 *       page (status, metric, message); {@code page} says which (size, before, {@code next_before} for the
 *       next older page or null, the dataset's partitions in all, and {@code partial} when there are more);
 *       freshness (TSLU against the SLA) when the served pipeline declares the dataset; and {@code declared} when
 *       static lineage (DatasetEvent, JobEvent) declared it: its facets as sent and the jobs whose latest JobEvent
 *       names it (job {@code namespace/name}, role, job facets);</li>
 *   <li>{@code GET /api/v1/graph/{name}?upstream=N&downstream=N}: the lineage graph to any depth ({@link LineageGraph});</li>
 *   <li>{@code GET /api/v1/runs/{id}}: a job run (pipeline, partition, attempt, status, times, its summary:
 *       steps, timings, rows in/out, warnings, failure; its warnings, the checks it judged and a timeline of its
 *       steps, the reconcile step too: {@link RunTimeline}), a run of another tool whose events were ingested
 *       (kind {@code ingested}: job, state, parent, nominal time, error message, times, run facets, outputs)
 *       or a step run (job, inputs, outputs, rows);</li>
 *   <li>{@code GET /api/v1/backfills/{id}}: a backfill's plan and progress per partition, and a timeline of the
 *       partitions' runs it made.</li>
 * </ul>
 * An unknown dataset, run or backfill is {@link Optional#empty()} (the server answers 404 with what
 * to try). Thread-safe: every call reads the warehouse anew.
 */
public final class CatalogApi {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int LEVELS = 3;
    /** Partitions per page of a dataset's view, by default. */
    public static final int PAGE = 60;
    /** The most partitions one page holds. */
    public static final int MAX_PAGE = 400;

    private final DSLContext dsl;
    private final LineageRepository lineage;
    private final @Nullable PipelineSpec spec;
    private final Clock clock;
    private final RunTimeline timelines;
    private final LineageGraph graph;

    /**
     * @param spec the served pipeline, whose {@code datasets:} give freshness; or null
     */
    public CatalogApi(DSLContext dsl, @Nullable PipelineSpec spec, Clock clock) {
        this.dsl = dsl;
        this.lineage = new LineageRepository(dsl);
        this.spec = spec;
        this.clock = clock;
        this.timelines = new RunTimeline(dsl);
        this.graph = new LineageGraph(lineage);
    }

    /**
     * A dataset's lineage graph within {@code upstream} and {@code downstream} levels ({@link LineageGraph#graph}),
     * or empty when nothing recorded reads or writes it.
     *
     * @throws IllegalArgumentException when a depth is outside 0 … {@value LineageGraph#MAX_DEPTH}, naming the parameter
     */
    public Optional<Map<String, Object>> graph(String name, int upstream, int downstream) {
        return graph.graph(name, upstream, downstream);
    }

    /** The home page's overview: what is wrong now ({@link StatusOverview#now()}). */
    public Map<String, Object> status() {
        return new StatusOverview(dsl, spec, clock).now();
    }

    /** Dataset names containing {@code query}. */
    public Map<String, Object> search(String query) {
        return Map.of("query", query, "datasets", lineage.datasets(query, 100));
    }

    /** A dataset's page with its newest {@value #PAGE} partitions, or empty when nothing recorded reads or writes it. */
    public Optional<Map<String, Object>> dataset(String name) {
        return dataset(name, null, PAGE);
    }

    /**
     * A dataset's page with one page of its partitions (published or judged), or empty when nothing
     * recorded reads or writes it.
     *
     * @param before only partitions whose key sorts before this one (the previous page's
     *     {@code next_before}), or null for the newest
     * @param size partitions per page, 1 … {@value #MAX_PAGE}
     * @throws IllegalArgumentException when {@code size} is outside 1 … {@value #MAX_PAGE}
     */
    public Optional<Map<String, Object>> dataset(String name, @Nullable String before, int size) {
        if (size < 1 || size > MAX_PAGE) {
            throw new IllegalArgumentException("partitions must be within 1 and " + MAX_PAGE + ", was " + size);
        }
        boolean published = dsl.fetchExists(DSL.selectOne().from(PublishedPartitionTable.TABLE).where(f("dataset").eq(name)));
        if (!lineage.known(name) && !published) {
            return Optional.empty();
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("name", name);
        out.put("schema", schema(name));
        out.put("upstream", edges(lineage.upstream(name, LEVELS)));
        out.put("downstream", edges(lineage.downstream(name, LEVELS)));
        Table<?> keys = DSL.select(f("partition_key")).from(PublishedPartitionTable.TABLE).where(f("dataset").eq(name))
                .union(DSL.select(f("partition_key")).from(QualityResultRepository.TABLE).where(f("dataset").eq(name))).asTable("k");
        Field<String> key = DSL.field(DSL.name("k", "partition_key"), String.class);
        int total = dsl.fetchCount(keys);
        List<String> page = dsl.select(key).from(keys).where(before == null ? DSL.noCondition() : key.lt(before))
                .orderBy(key.desc()).limit(size + 1).fetch(key);
        String next = page.size() > size ? page.get(size - 1) : null;
        if (next != null) {
            page = page.subList(0, size);
        }
        List<Map<String, Object>> partitions = new ArrayList<>();
        for (Record r : dsl.select(f("partition_key"), f("version"), f("run_id"), f("published_at")).from(PublishedPartitionTable.TABLE)
                .where(f("dataset").eq(name), f("partition_key").in(page)).orderBy(f("partition_key").desc()).fetch()) {
            partitions.add(row("partition", r.get(0), "version", r.get(1), "run_id", r.get(2), "published_at", String.valueOf(r.get(3))));
        }
        out.put("page", row("size", size, "before", before, "next_before", next, "partitions_total", total,
                "partial", next != null || before != null));
        out.put("partitions", partitions);
        out.put("quality", quality(name, page));
        freshness(name).ifPresent(fr -> out.put("freshness", fr));
        lineage.declared(name).ifPresent(d -> out.put("declared", row("facets", d.facets(), "jobs",
                d.jobs().stream().map(j -> row("job", j.job(), "role", j.role(), "facets", j.facets())).toList())));
        return Optional.of(out);
    }

    /**
     * A job run (from {@code sluice.run}), a run of another tool ({@link LineageRuns}), or a step run
     * (from the lineage edges), or empty.
     */
    public Optional<Map<String, Object>> run(String id) {
        Record r = dsl.select(f("run_id"), f("pipeline"), f("partition_key"), f("attempt"), f("status"), f("requester"), f("started_at"),
                f("ended_at"), f("exit_message"), f("summary_json"), f("job_execution_id")).from(RunRepository.TABLE).where(f("run_id").eq(id)).fetchOne();
        if (r != null) {
            Map<String, Object> out = row("run_id", r.get(0), "kind", "job", "pipeline", r.get(1), "partition", r.get(2), "attempt", r.get(3),
                    "status", r.get(4), "requester", r.get(5), "started_at", String.valueOf(r.get(6)),
                    "ended_at", r.get(7) == null ? null : String.valueOf(r.get(7)), "message", r.get(8));
            JsonNode summary = parse(r.get(9, String.class));
            out.put("summary", summary);
            out.put("warnings", summary == null || !summary.has("warnings") ? List.of() : summary.get("warnings"));
            out.put("checks", timelines.checks(id));
            out.put("timeline", timelines.ofRun(r.get(10, Long.class)));
            out.put("steps", steps(id));
            return Optional.of(out);
        }
        List<Map<String, Object>> steps = steps(id, "run_id");
        Optional<LineageRun> ingested = new LineageRuns(dsl).find(id);
        if (ingested.isPresent()) {
            return Optional.of(ingested(ingested.get(), steps));
        }
        if (steps.isEmpty()) {
            return Optional.empty();
        }
        Map<String, Object> out = row("run_id", id, "kind", "step");
        out.put("outputs", steps);
        return Optional.of(out);
    }

    /**
     * An ingested run: job ({@code namespace/name}), state, parent, nominal time, error message,
     * times (ISO-8601), event count, run facets as sent, and its outputs: the edges it completed, else
     * each output it named with its inputs (version and rows null).
     */
    private static Map<String, Object> ingested(LineageRun r, List<Map<String, Object>> steps) {
        Map<String, Object> out = row("run_id", r.runId(), "kind", "ingested", "job", r.namespace() + "/" + r.job(), "state", r.state(),
                "parent_run_id", r.parentRunId(), "parent_job", r.parentJob(), "nominal_start_time", text(r.nominalStartTime()),
                "nominal_end_time", text(r.nominalEndTime()), "error_message", r.errorMessage(), "started_at", text(r.startedAt()),
                "ended_at", text(r.endedAt()), "events", r.events());
        out.put("facets", r.facets());
        out.put("outputs", !steps.isEmpty() ? steps : r.outputs().stream()
                .map(o -> row("output", o, "version", null, "rows", null, "inputs", r.inputs())).toList());
        return out;
    }

    private static @Nullable String text(@Nullable Object value) {
        return value == null ? null : value.toString();
    }

    /** A backfill's plan and per-partition progress, or empty. */
    public Optional<Map<String, Object>> backfill(String id) {
        Record b = dsl.select(f("backfill_id"), f("pipeline"), f("from_key"), f("to_key"), f("rerun"), f("status"), f("invocations"),
                f("requester"), f("started_at"), f("ended_at"), f("host"), f("pid")).from(BackfillRepository.BACKFILLS)
                .where(f("backfill_id").eq(id)).fetchOne();
        if (b == null) {
            return Optional.empty();
        }
        Map<String, Object> out = row("backfill_id", b.get(0), "pipeline", b.get(1), "from", b.get(2), "to", b.get(3), "rerun", b.get(4),
                "status", b.get(5), "invocations", b.get(6), "requester", b.get(7), "started_at", String.valueOf(b.get(8)),
                "ended_at", b.get(9) == null ? null : String.valueOf(b.get(9)));
        // RUNNING with its process gone: killed, also between two partitions (no attempt left STARTED)
        boolean gone = BackfillStatus.RUNNING.name().equals(b.get(5)) && RunRecord.processGone(b.get(10, String.class), b.get(11, Long.class), RunRepository.thisHost());
        out.put("process_gone", gone);
        // a partition's run is recorded on the backfill's row when it ends: one running or killed is found by its trace id
        Map<String, RunTimeline.BackfillAttempt> attempts = timelines.attempts(id);
        List<Map<String, Object>> partitions = new ArrayList<>();
        Map<String, Integer> byStatus = new LinkedHashMap<>();
        for (Record p : dsl.select(f("partition_key"), f("action"), f("status"), f("run_id"), f("message"), f("updated_at"))
                .from(BackfillRepository.PARTITIONS).where(f("backfill_id").eq(id)).orderBy(f("partition_key")).fetch()) {
            RunTimeline.BackfillAttempt attempt = attempts.get(String.valueOf(p.get(0)));
            Object runId = p.get(3) == null && attempt != null ? attempt.runId() : p.get(3);
            Object status = gone && PartitionStatus.RUNNING.name().equals(p.get(2)) ? "KILLED" : p.get(2);
            partitions.add(row("partition", p.get(0), "action", p.get(1), "status", status, "run_id", runId, "message", p.get(4),
                    "updated_at", String.valueOf(p.get(5))));
            byStatus.merge(String.valueOf(status), 1, Integer::sum);
        }
        out.put("progress", byStatus);
        out.put("partitions", partitions);
        out.put("timeline", RunTimeline.ofBackfill(attempts));
        return Optional.of(out);
    }

    /**
     * The dataset's columns (from the served spec when it declares the table, with types; else the
     * columns lineage recorded), each with the input columns it is built from (dataset.column,
     * how, masked).
     */
    private List<Map<String, Object>> schema(String name) {
        Map<String, List<String>> from = new LinkedHashMap<>();
        for (Record r : dsl.selectDistinct(f("output_column"), f("input_name"), f("input_column"), f("subtype"), f("masking"))
                .from(LineageRepository.COLUMNS).where(f("output_name").eq(name)).orderBy(f("output_column"), f("input_name"), f("input_column"))
                .fetch()) {
            from.computeIfAbsent(String.valueOf(r.get(0)), k -> new ArrayList<>()).add(r.get(1) + "." + r.get(2) + " (" + r.get(3)
                    + (Boolean.TRUE.equals(r.get(4, Boolean.class)) ? ", masked" : "") + ")");
        }
        List<Map<String, Object>> out = new ArrayList<>();
        var table = spec == null ? Optional.<TableSpec>empty() : ref(name).flatMap(spec::table);
        if (table.isPresent()) {
            for (var c : table.get().columns()) {
                out.add(row("column", c.name(), "type", c.typeId(), "from", from.getOrDefault(c.name(), List.of())));
            }
            return out;
        }
        from.forEach((column, inputs) -> out.add(row("column", column, "type", null, "from", inputs)));
        return out;
    }

    private static Optional<DatasetRef> ref(String name) {
        try {
            return Optional.of(DatasetRef.parse(name));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    private List<Map<String, Object>> edges(List<LineageRepository.Edge> edges) {
        return edges.stream().map(e -> row("from", e.from(), "to", e.to(), "job", e.job())).toList();
    }

    /** Per partition of the page (newest first) and check, the latest result. */
    private List<Map<String, Object>> quality(String dataset, List<String> page) {
        Table<?> q = QualityResultRepository.TABLE.as("r");
        Field<Long> id = DSL.field(DSL.name("r", "result_id"), Long.class);
        Field<Long> latest = QualityResultRepository.latestOf("r");
        List<Map<String, Object>> out = new ArrayList<>();
        for (Record r : dsl.select(a("partition_key"), a("check_id"), a("expectation"), a("family"), a("boundary"), a("severity"), a("status"),
                        a("metric"), a("message"), a("run_id")).from(q)
                .where(DSL.field(DSL.name("r", "dataset")).eq(dataset), a("partition_key").in(page), id.eq(latest))
                .orderBy(a("partition_key").desc(), id).fetch()) {
            out.add(row("partition", r.get(0), "check", r.get(1), "expectation", r.get(2), "family", r.get(3), "boundary", r.get(4),
                    "severity", r.get(5), "status", r.get(6), "metric", r.get(7), "message", r.get(8), "run_id", r.get(9)));
        }
        return out;
    }

    private Optional<Map<String, Object>> freshness(String name) {
        if (spec == null) {
            return Optional.empty();
        }
        DatasetRef ref;
        try {
            ref = DatasetRef.parse(name);
        } catch (RuntimeException e) {
            return Optional.empty();
        }
        if (!spec.datasets().containsKey(ref)) {
            return Optional.empty();
        }
        for (DatasetFreshness f : new FreshnessMonitor(dsl, clock).status(spec)) {
            if (f.dataset().equals(ref)) {
                return Optional.of(row("state", f.state().name(), "last_partition", f.lastPartition(),
                        "tslu_s", f.tslu() == null ? null : f.tslu().toSeconds(), "update_interval", f.policy().updateInterval().toString(),
                        "warn_after", f.policy().warnAfter().toString(), "sla", f.policy().freshnessSla().toString(), "owner", f.policy().owner()));
            }
        }
        return Optional.empty();
    }

    /** The step runs of a job run (their parent), from the lineage edges. */
    private List<Map<String, Object>> steps(String jobRun) {
        return steps(jobRun, "parent_run_id");
    }

    private List<Map<String, Object>> steps(String id, String column) {
        Field<String> inputs = DSL.groupConcatDistinct(f("input_name")).as("inputs");
        List<Map<String, Object>> out = new ArrayList<>();
        for (Record r : dsl.select(f("run_id"), f("job"), f("output_name"), f("partition_key"), f("output_version"), f("output_rows"), inputs,
                        DSL.max(DSL.field(DSL.name("event_time"))).as("completed_at"))
                .from(LineageRepository.EDGES).where(f(column).eq(id))
                .groupBy(f("run_id"), f("job"), f("output_name"), f("partition_key"), f("output_version"), f("output_rows"))
                .orderBy(DSL.field(DSL.name("completed_at"))).fetch()) {
            out.add(row("run_id", r.get(0), "job", r.get(1), "output", r.get(2), "partition", r.get(3), "version", r.get(4), "rows", r.get(5),
                    "inputs", r.get(6) == null ? List.of() : List.of(String.valueOf(r.get(6)).split(",")), "completed_at", String.valueOf(r.get(7))));
        }
        return out;
    }

    private static @Nullable JsonNode parse(@Nullable String json) {
        if (json == null) {
            return null;
        }
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            return JSON.getNodeFactory().textNode(json);
        }
    }
}
