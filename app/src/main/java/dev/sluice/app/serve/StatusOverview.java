package dev.sluice.app.serve;

import dev.sluice.control.backfill.BackfillStatus;
import static dev.sluice.app.serve.ApiRows.a;
import static dev.sluice.app.serve.ApiRows.f;
import static dev.sluice.app.serve.ApiRows.row;

import dev.sluice.control.backfill.BackfillRepository;
import dev.sluice.control.quality.QualityResultRepository;
import dev.sluice.control.run.RunRecord;
import dev.sluice.control.run.RunRepository;
import dev.sluice.control.run.RunStatus;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.RunId;
import dev.sluice.lineage.store.LineageRepository;
import dev.sluice.operations.freshness.DatasetFreshness;
import dev.sluice.operations.freshness.FreshnessMonitor;
import dev.sluice.operations.freshness.FreshnessState;
import dev.sluice.warehouse.meta.HotOffsetTable;
import dev.sluice.warehouse.meta.PublishedPartitionTable;
import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

/**
 * The answer of {@code GET /api/v1/status}: is everything all right? A fixed handful of set-based
 * queries over {@code sluice.run}, {@code sluice.backfill}, {@code sluice.published_partition},
 * {@code sluice.quality_results}, {@code sluice.hot_offset} and the lineage store's dataset names
 * (none per dataset, pipeline or partition). The answer (docs/serve.md, "The catalog API"):
 * <ul>
 *   <li>{@code summary}: {@code failed_partitions}, {@code stopped_partitions}, {@code killed_partitions},
 *       {@code running_partitions} (each partition counted by its newest attempt), {@code failed_checks},
 *       {@code warned_checks} (the latest result of each check of each partition), {@code late_datasets}
 *       (freshness WARN or BREACH), {@code breached_datasets}, {@code running_backfills},
 *       {@code killed_backfills}, {@code hot_path_lag_records} (sum, null when no partition reported one);</li>
 *   <li>{@code pipelines}: one per pipeline recorded in {@code sluice.run} (and the served one even
 *       before its first run), by name: {@code newest} attempt (run id, partition, attempt, status,
 *       {@code process_gone}, started/ended ISO-8601) or null, {@code last_completed_partition},
 *       {@code freshness} (the worst state of its declared datasets; served pipeline only, else null),
 *       {@code problems} (partitions whose newest attempt is FAILED, STOPPED or KILLED: run id, attempt,
 *       status, stop cause, message), {@code running} (partitions whose newest attempt runs) and
 *       {@code backfills} (RUNNING or KILLED ones: id, range, status, {@code process_gone}, progress by
 *       partition status);</li>
 *   <li>{@code datasets}: every dataset published, judged, declared or named by lineage, problems
 *       first (rank 0: freshness BREACH or a FAILED check; 1: WARN or a WARNED check; 2: never
 *       published though declared; 3: the rest), then by name: {@code freshness} (state, TSLU in s,
 *       warn after, SLA, owner; null when the served pipeline does not declare it),
 *       {@code last_partition}, {@code partitions} (published, count), {@code failing_checks}
 *       (latest FAILED or WARNED results: partition, check, status, message, run id);</li>
 *   <li>{@code hot_path}: {@code lag_source} (what the lag is: no broker is asked) and
 *       {@code partitions}: group, topic, partition, next offset stored, lag in records (null: not
 *       known), seconds since the last store.</li>
 * </ul>
 * A run recorded STARTED whose process is gone (same host, its pid not alive: {@link RunRecord#isOrphaned})
 * is {@code KILLED} with {@code process_gone: true}; so is a RUNNING backfill whose latest invocation's
 * process is gone ({@link BackfillRepository#processGone}: also between two partitions). Thread-safe: every call reads the warehouse anew.
 */
public final class StatusOverview {

    /** The most dataset names taken from the lineage store. */
    static final int MAX_LINEAGE_DATASETS = 1000;
    private static final String KILLED = "KILLED";

    private final DSLContext dsl;
    private final @Nullable PipelineSpec spec;
    private final Clock clock;
    private final String thisHost = RunRepository.thisHost();

    /**
     * @param spec the served pipeline, whose {@code datasets:} give freshness; or null
     */
    public StatusOverview(DSLContext dsl, @Nullable PipelineSpec spec, Clock clock) {
        this.dsl = dsl;
        this.spec = spec;
        this.clock = clock;
    }

    /** The overview now (the shape in the class comment). */
    public Map<String, Object> now() {
        List<DatasetFreshness> freshness = spec == null ? List.of() : new FreshnessMonitor(dsl, clock).status(spec);
        Map<String, Map<String, Object>> pipelines = pipelines(freshness);
        List<Map<String, Object>> datasets = datasets(freshness);
        List<Map<String, Object>> hot = hotPath();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("summary", summary(pipelines.values(), datasets, hot));
        out.put("pipelines", List.copyOf(pipelines.values()));
        out.put("datasets", datasets);
        out.put("hot_path", row("lag_source", "the lag each consumer saw at its last store (log-end offset minus its position then,"
                + " " + HotOffsetTable.NAME + "); no broker is asked", "partitions", hot));
        return out;
    }

    private Map<String, Map<String, Object>> pipelines(List<DatasetFreshness> freshness) {
        Map<String, Map<String, Object>> out = new TreeMap<>();
        if (spec != null) {
            out.put(spec.name(), pipeline(spec.name()));
        }
        Field<Object> started = f("started_at");
        for (Record r : dsl.select(f("pipeline"), f("run_id"), f("partition_key"), f("attempt"), f("status"), f("spec_hash"), started,
                        f("ended_at"), f("host"), f("pid"), f("trace_id")).from(RunRepository.TABLE.as("x"))
                .where(DSL.field(DSL.name("x", "started_at")).eq(DSL.field(DSL.select(DSL.max(DSL.field(DSL.name("y", "started_at"))))
                        .from(RunRepository.TABLE.as("y")).where(DSL.field(DSL.name("y", "pipeline")).eq(DSL.field(DSL.name("x", "pipeline")))))))
                .orderBy(f("pipeline"), f("attempt").desc()).fetch()) {
            Map<String, Object> p = out.computeIfAbsent(r.get(0, String.class), this::pipeline);
            if (p.get("newest") == null) {
                RunRecord run = record(r);
                p.put("newest", row("run_id", run.runId().toString(), "partition", run.partitionKey(), "attempt", run.attempt(),
                        "status", status(run), "process_gone", run.isOrphaned(thisHost), "started_at", text(run.startedAt()),
                        "ended_at", text(run.endedAt())));
            }
        }
        for (Record r : dsl.select(f("pipeline"), DSL.max(f("partition_key"))).from(RunRepository.TABLE)
                .where(f("status").eq(RunStatus.COMPLETED.name())).groupBy(f("pipeline")).fetch()) {
            out.computeIfAbsent(r.get(0, String.class), this::pipeline).put("last_completed_partition", r.get(1, String.class));
        }
        partitions(out);
        backfills(out);
        if (spec != null) {
            freshness.stream().map(DatasetFreshness::state).max(Comparator.comparingInt(FreshnessState::severity))
                    .ifPresent(s -> out.get(spec.name()).put("freshness", s.name()));
        }
        return out;
    }

    private Map<String, Object> pipeline(String name) {
        return row("pipeline", name, "newest", null, "last_completed_partition", null, "freshness", null,
                "problems", new ArrayList<>(), "running", new ArrayList<>(), "backfills", new ArrayList<>());
    }

    /** The partitions whose newest attempt is FAILED, STOPPED or STARTED (running, or killed when its process is gone). */
    @SuppressWarnings("unchecked")
    private void partitions(Map<String, Map<String, Object>> pipelines) {
        Field<Integer> newest = RunRepository.newestAttemptOf("r");
        for (Record r : dsl.select(f("pipeline"), f("run_id"), f("partition_key"), f("attempt"), f("status"), f("spec_hash"), f("started_at"),
                        f("ended_at"), f("host"), f("pid"), f("trace_id"), f("stop_cause"), f("exit_message")).from(RunRepository.TABLE.as("r"))
                .where(f("attempt").eq(newest), f("status").in(RunStatus.FAILED.name(), RunStatus.STOPPED.name(), RunStatus.STARTED.name()))
                .orderBy(f("pipeline"), f("partition_key")).fetch()) {
            RunRecord run = record(r);
            Map<String, Object> p = pipelines.computeIfAbsent(run.pipeline(), this::pipeline);
            String status = status(run);
            if (status.equals(RunStatus.STARTED.name())) {
                ((List<Object>) p.get("running")).add(row("partition", run.partitionKey(), "run_id", run.runId().toString(),
                        "attempt", run.attempt(), "started_at", text(run.startedAt())));
            } else {
                ((List<Object>) p.get("problems")).add(row("partition", run.partitionKey(), "run_id", run.runId().toString(),
                        "attempt", run.attempt(), "status", status, "process_gone", status.equals(KILLED), "stop_cause", r.get(11, String.class),
                        "message", r.get(12, String.class), "started_at", text(run.startedAt()), "ended_at", text(run.endedAt())));
            }
        }
    }

    /**
     * The RUNNING backfills, KILLED when the process of their latest invocation is gone (the rule of
     * {@link BackfillRepository#processGone}, applied to all of them in one query), with progress by partition status.
     */
    @SuppressWarnings("unchecked")
    private void backfills(Map<String, Map<String, Object>> pipelines) {
        Map<String, Map<String, Object>> byId = new LinkedHashMap<>();
        Map<String, String> pipelineOf = new LinkedHashMap<>();
        for (Record r : dsl.select(f("backfill_id"), f("pipeline"), f("from_key"), f("to_key"), f("started_at"), f("invocations"), f("host"), f("pid"))
                .from(BackfillRepository.BACKFILLS).where(f("status").eq(BackfillStatus.RUNNING.name())).orderBy(f("pipeline"), f("started_at")).fetch()) {
            boolean gone = RunRecord.processGone(r.get(6, String.class), r.get(7, Long.class), thisHost);
            byId.put(r.get(0, String.class), row("backfill_id", r.get(0, String.class), "from", r.get(2, String.class), "to", r.get(3, String.class),
                    "status", gone ? KILLED : BackfillStatus.RUNNING.name(), "process_gone", gone, "invocations", r.get(5, Integer.class),
                    "started_at", text(r.get(4, OffsetDateTime.class)), "progress", new TreeMap<String, Integer>()));
            pipelineOf.put(r.get(0, String.class), r.get(1, String.class));
        }
        if (byId.isEmpty()) {
            return;
        }
        for (Record r : dsl.select(f("backfill_id"), f("status"), DSL.count()).from(BackfillRepository.PARTITIONS)
                .where(f("backfill_id").in(byId.keySet())).groupBy(f("backfill_id"), f("status")).fetch()) {
            ((Map<String, Integer>) byId.get(r.get(0, String.class)).get("progress")).put(r.get(1, String.class), r.get(2, Integer.class));
        }
        byId.forEach((id, b) -> ((List<Object>) pipelines.computeIfAbsent(pipelineOf.get(id), this::pipeline).get("backfills")).add(b));
    }

    private List<Map<String, Object>> datasets(List<DatasetFreshness> freshness) {
        Map<String, Map<String, Object>> byName = new TreeMap<>();
        for (String name : new LineageRepository(dsl).datasets("", MAX_LINEAGE_DATASETS)) {
            byName.put(name, dataset(name));
        }
        for (Record r : dsl.select(f("dataset"), DSL.max(f("partition_key")), DSL.count()).from(PublishedPartitionTable.TABLE)
                .groupBy(f("dataset")).fetch()) {
            Map<String, Object> d = byName.computeIfAbsent(r.get(0, String.class), this::dataset);
            d.put("last_partition", r.get(1, String.class));
            d.put("partitions", r.get(2, Integer.class));
        }
        for (DatasetFreshness f : freshness) {
            byName.computeIfAbsent(f.dataset().qualifiedName(), this::dataset).put("freshness", row("state", f.state().name(),
                    "tslu_s", f.tslu() == null ? null : f.tslu().toSeconds(), "warn_after", f.policy().warnAfter().toString(),
                    "sla", f.policy().freshnessSla().toString(), "owner", f.policy().owner()));
        }
        Field<Long> latest = QualityResultRepository.latestOf("r");
        for (Record r : dsl.select(a("dataset"), a("partition_key"), a("check_id"), a("status"), a("message"), a("run_id"))
                .from(QualityResultRepository.TABLE.as("r"))
                .where(DSL.field(DSL.name("r", "result_id"), Long.class).eq(latest), a("status").in("FAILED", "WARNED"))
                .orderBy(a("dataset"), a("partition_key").desc(), a("check_id")).fetch()) {
            @SuppressWarnings("unchecked")
            List<Object> failing = (List<Object>) byName.computeIfAbsent(r.get(0, String.class), this::dataset).get("failing_checks");
            failing.add(row("partition", r.get(1, String.class), "check", r.get(2, String.class), "status", r.get(3, String.class),
                    "message", r.get(4, String.class), "run_id", r.get(5, String.class)));
        }
        List<Map<String, Object>> out = new ArrayList<>(byName.values());
        out.sort(Comparator.comparingInt(StatusOverview::rank)); // stable: by name within a rank
        return out;
    }

    private Map<String, Object> dataset(String name) {
        return row("dataset", name, "freshness", null, "last_partition", null, "partitions", 0, "failing_checks", new ArrayList<>());
    }

    /** 0: breached or a check FAILED; 1: late or a check WARNED; 2: declared but never published; 3: the rest. */
    private static int rank(Map<String, Object> d) {
        String state = d.get("freshness") instanceof Map<?, ?> f ? String.valueOf(f.get("state")) : "";
        List<?> checks = (List<?>) d.get("failing_checks");
        if (state.equals("BREACH") || checks.stream().anyMatch(c -> "FAILED".equals(((Map<?, ?>) c).get("status")))) {
            return 0;
        }
        if (state.equals("WARN") || !checks.isEmpty()) {
            return 1;
        }
        return state.equals("NEVER") ? 2 : 3;
    }

    private List<Map<String, Object>> hotPath() {
        OffsetDateTime now = OffsetDateTime.now(clock);
        List<Map<String, Object>> out = new ArrayList<>();
        for (Record r : dsl.select(f("group_id"), f("topic"), f("kafka_partition"), f("next_offset"), f("lag_records"), f("updated_at"))
                .from(HotOffsetTable.TABLE).orderBy(f("group_id"), f("topic"), f("kafka_partition")).fetch()) {
            Duration age = Duration.between(r.get(5, OffsetDateTime.class), now);
            out.add(row("group", r.get(0, String.class), "topic", r.get(1, String.class), "partition", r.get(2, Integer.class),
                    "next_offset", r.get(3, Long.class), "lag_records", r.get(4, Long.class), "last_store_age_s", Math.max(0, age.toSeconds())));
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> summary(Iterable<Map<String, Object>> pipelines, List<Map<String, Object>> datasets,
            List<Map<String, Object>> hot) {
        Map<String, Integer> n = new TreeMap<>();
        for (Map<String, Object> p : pipelines) {
            for (Map<String, Object> problem : (List<Map<String, Object>>) p.get("problems")) {
                n.merge(String.valueOf(problem.get("status")), 1, Integer::sum);
            }
            n.merge("running", ((List<?>) p.get("running")).size(), Integer::sum);
            for (Map<String, Object> b : (List<Map<String, Object>>) p.get("backfills")) {
                n.merge("backfill " + b.get("status"), 1, Integer::sum);
            }
        }
        int failedChecks = 0;
        int warnedChecks = 0;
        int late = 0;
        int breached = 0;
        for (Map<String, Object> d : datasets) {
            for (Map<String, Object> c : (List<Map<String, Object>>) d.get("failing_checks")) {
                if ("FAILED".equals(c.get("status"))) {
                    failedChecks++;
                } else {
                    warnedChecks++;
                }
            }
            String state = d.get("freshness") instanceof Map<?, ?> f ? String.valueOf(f.get("state")) : "";
            late += state.equals("WARN") || state.equals("BREACH") ? 1 : 0;
            breached += state.equals("BREACH") ? 1 : 0;
        }
        Long lag = hot.stream().map(h -> (Long) h.get("lag_records")).filter(java.util.Objects::nonNull).reduce(Long::sum).orElse(null);
        return row("failed_partitions", n.getOrDefault(RunStatus.FAILED.name(), 0), "stopped_partitions", n.getOrDefault(RunStatus.STOPPED.name(), 0),
                "killed_partitions", n.getOrDefault(KILLED, 0), "running_partitions", n.getOrDefault("running", 0),
                "failed_checks", failedChecks, "warned_checks", warnedChecks, "late_datasets", late, "breached_datasets", breached,
                "running_backfills", n.getOrDefault("backfill RUNNING", 0), "killed_backfills", n.getOrDefault("backfill " + KILLED, 0),
                "hot_path_lag_records", lag);
    }

    private static RunRecord record(Record r) {
        return new RunRecord(RunId.parse(r.get(1, String.class)), r.get(0, String.class), r.get(2, String.class), r.get(3, Integer.class),
                RunStatus.of(r.get(4, String.class)), r.get(5, String.class), r.get(6, OffsetDateTime.class), r.get(7, OffsetDateTime.class),
                r.get(8, String.class), r.get(9, Long.class), r.get(10, String.class));
    }

    /** The recorded status, but KILLED for a STARTED attempt whose process is gone. */
    private String status(RunRecord run) {
        return run.isOrphaned(thisHost) ? KILLED : run.status().name();
    }


    private static @Nullable String text(@Nullable Object value) {
        return value == null ? null : value.toString();
    }
}
