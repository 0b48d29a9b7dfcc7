package dev.sluice.app.serve;

import dev.sluice.control.run.RunRepository;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

/**
 * The timelines of the run and backfill pages (docs/serve.md, "The run page"): one bar per step of a job
 * run, from the start and end times Spring Batch recorded for it ({@code BATCH_STEP_EXECUTION}, every
 * execution of the run's job instance: a step completed before a restart keeps its first times), and one
 * bar per partition a backfill ran (the partition's run in {@code sluice.run}). Also the checks a run
 * judged ({@code sluice.quality_results}). Thread-safe: every call reads the warehouse anew.
 *
 * <p>A timeline is {@code {"started_at": ISO-8601 or null, "span_ms": long, "bars": [...]}}, bars ordered
 * by start; each bar has {@code name}, {@code status}, {@code started_at}, {@code ended_at} (ISO-8601, null
 * while it runs), {@code offset_ms} (its start after the timeline's, in milliseconds) and {@code elapsed_ms}
 * (0 while it runs); {@code span_ms} is the latest end after the first start.
 */
final class RunTimeline {

    private final DSLContext dsl;

    RunTimeline(DSLContext dsl) {
        this.dsl = dsl;
    }

    /**
     * The steps of the job run whose last job execution is {@code jobExecutionId} (null: no step ran yet);
     * each bar also has {@code rows_read}, {@code rows_written} and {@code earlier_execution} (true when
     * the step completed before a restart of the attempt).
     */
    Map<String, Object> ofRun(@Nullable Long jobExecutionId) {
        if (jobExecutionId == null) {
            return timeline(new ArrayList<>()); // sorted in place: not List.of()
        }
        Map<String, Bar> byStep = new LinkedHashMap<>();
        for (Record r : dsl.resultQuery("SELECT s.STEP_NAME, s.STATUS, s.START_TIME, s.END_TIME, s.READ_COUNT, s.WRITE_COUNT,"
                + " s.JOB_EXECUTION_ID FROM sluice.BATCH_STEP_EXECUTION s JOIN sluice.BATCH_JOB_EXECUTION e"
                + " ON e.JOB_EXECUTION_ID = s.JOB_EXECUTION_ID WHERE e.JOB_INSTANCE_ID = (SELECT JOB_INSTANCE_ID"
                + " FROM sluice.BATCH_JOB_EXECUTION WHERE JOB_EXECUTION_ID = ?) ORDER BY s.STEP_EXECUTION_ID", jobExecutionId).fetch()) {
            LocalDateTime start = r.get(2, LocalDateTime.class);
            if (start == null) {
                continue;
            }
            LocalDateTime end = r.get(3, LocalDateTime.class);
            ZoneId zone = ZoneId.systemDefault();
            Bar bar = new Bar(r.get(0, String.class), r.get(1, String.class), start.atZone(zone).toInstant(),
                    end == null ? null : end.atZone(zone).toInstant());
            bar.extra.put("rows_read", r.get(4, Long.class));
            bar.extra.put("rows_written", r.get(5, Long.class));
            bar.extra.put("earlier_execution", !jobExecutionId.equals(r.get(6, Long.class)));
            byStep.put(bar.name, bar); // the latest execution of each step
        }
        return timeline(new ArrayList<>(byStep.values()));
    }

    /**
     * The latest attempt of one partition a backfill ran.
     *
     * @param partition the partition key
     * @param runId the attempt's run id
     * @param status its {@code sluice.run} status (STARTED while it runs, or when its process was killed)
     * @param start when it started
     * @param end when it ended; null while it runs (or once it was killed)
     */
    record BackfillAttempt(String partition, String runId, String status, Instant start, @Nullable Instant end) {
    }

    /**
     * The partitions backfill {@code backfillId} ran, by partition key: the latest attempt of each
     * (its runs carry the backfill's id as trace id, {@code sluice.run.trace_id}), also one still
     * running or killed before the backfill recorded it on its own row; a partition it skipped
     * (already COMPLETED by another run) is absent. One query.
     */
    Map<String, BackfillAttempt> attempts(String backfillId) {
        Map<String, BackfillAttempt> out = new LinkedHashMap<>();
        for (Record r : dsl.select(DSL.field(DSL.name("partition_key")), DSL.field(DSL.name("run_id")), DSL.field(DSL.name("status")),
                        DSL.field(DSL.name("started_at")), DSL.field(DSL.name("ended_at"))).from(RunRepository.TABLE)
                .where(DSL.field(DSL.name("trace_id")).eq(backfillId)).orderBy(DSL.field(DSL.name("attempt"))).fetch()) {
            OffsetDateTime end = r.get(4, OffsetDateTime.class);
            out.put(r.get(0, String.class), new BackfillAttempt(r.get(0, String.class), r.get(1, String.class), r.get(2, String.class),
                    r.get(3, OffsetDateTime.class).toInstant(), end == null ? null : end.toInstant())); // the latest attempt of each partition
        }
        return out;
    }

    /** The timeline of a backfill's {@code attempts} ({@link #attempts}): a bar per partition, each with {@code run_id}. */
    static Map<String, Object> ofBackfill(Map<String, BackfillAttempt> attempts) {
        List<Bar> bars = new ArrayList<>();
        for (BackfillAttempt a : attempts.values()) {
            Bar bar = new Bar(a.partition(), a.status(), a.start(), a.end());
            bar.extra.put("run_id", a.runId());
            bars.add(bar);
        }
        return timeline(bars);
    }

    /**
     * The latest result of each check run {@code runId} judged, in evaluation order: dataset, partition,
     * check, family, boundary, severity, status, metric (null when none), message. A reconcile step's
     * comparison is one of them (check {@code reconcile_<table>}).
     */
    List<Map<String, Object>> checks(String runId) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Record r : dsl.resultQuery("SELECT r.dataset, r.partition_key, r.check_id, r.family, r.boundary, r.severity, r.status, r.metric,"
                + " r.message FROM " + dsl.render(dev.sluice.control.quality.QualityResultRepository.TABLE) + " r WHERE r.run_id = ? AND r.result_id = (SELECT MAX(r2.result_id)"
                + " FROM " + dsl.render(dev.sluice.control.quality.QualityResultRepository.TABLE) + " r2 WHERE r2.run_id = r.run_id AND r2.dataset = r.dataset AND r2.check_id = r.check_id"
                + " AND r2.partition_key = r.partition_key) ORDER BY r.result_id", runId).fetch()) {
            Map<String, Object> c = new LinkedHashMap<>();
            for (String k : List.of("dataset", "partition", "check", "family", "boundary", "severity", "status", "metric", "message")) {
                c.put(k, r.get(c.size()));
            }
            out.add(c);
        }
        return out;
    }

    private static Map<String, Object> timeline(List<Bar> bars) {
        bars.sort(Comparator.comparing((Bar b) -> b.start));
        Instant origin = bars.isEmpty() ? null : bars.get(0).start;
        long span = 0;
        List<Map<String, Object>> json = new ArrayList<>();
        for (Bar b : bars) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", b.name);
            m.put("status", b.status);
            m.put("started_at", b.start.toString());
            m.put("ended_at", b.end == null ? null : b.end.toString());
            long offset = Duration.between(origin, b.start).toMillis();
            long elapsed = b.end == null ? 0 : Duration.between(b.start, b.end).toMillis();
            m.put("offset_ms", offset);
            m.put("elapsed_ms", elapsed);
            m.putAll(b.extra);
            span = Math.max(span, offset + elapsed);
            json.add(m);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("started_at", origin == null ? null : origin.toString());
        out.put("span_ms", span);
        out.put("bars", json);
        return out;
    }

    /** One bar being built. */
    private static final class Bar {
        private final String name;
        private final String status;
        private final Instant start;
        private final @Nullable Instant end;
        private final Map<String, Object> extra = new LinkedHashMap<>();

        Bar(String name, String status, Instant start, @Nullable Instant end) {
            this.name = name;
            this.status = status;
            this.start = start;
            this.end = end;
        }
    }
}
