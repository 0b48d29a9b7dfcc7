package dev.sluice.operations.docs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.control.quality.QualityResultRepository;
import dev.sluice.control.run.RunRepository;
import java.io.IOException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

/**
 * What the warehouse knows of a pipeline's recent operation, for the run-derived part of its design
 * document: the newest attempts ({@code sluice.run}) and, per check, the latest status in each of
 * the most recent partitions with quality results ({@code sluice.quality_results}). Immutable.
 *
 * @param runs the newest attempts, newest first
 * @param partitions the partitions of the quality history, oldest first
 * @param checks per check (by dataset, then check id) its latest status per partition of {@code partitions}
 */
public record RunHistory(List<Run> runs, List<String> partitions, List<CheckHistory> checks) {

    /** Attempts read by {@link #read}. */
    public static final int RUNS = 10;
    /** Partitions of the quality history read by {@link #read}. */
    public static final int PARTITIONS = 7;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Table<?> RUN = RunRepository.TABLE;
    private static final Table<?> QUALITY = QualityResultRepository.TABLE;

    public RunHistory {
        runs = List.copyOf(runs);
        partitions = List.copyOf(partitions);
        checks = List.copyOf(checks);
    }

    /**
     * One attempt.
     *
     * @param runId its run id
     * @param partitionKey the partition
     * @param attempt 0, 1, …
     * @param status STARTED, COMPLETED, FAILED, STOPPED or ABANDONED
     * @param startedAt when it first started
     * @param endedAt when its latest execution ended, or null
     * @param bronzeRows rows of the partition's current Bronze load (from the run's summary), or null
     * @param silverRows rows written to Silver, or null
     * @param goldRows rows written to Gold, or null
     * @param quarantined rows quarantined, or null
     */
    public record Run(String runId, String partitionKey, int attempt, String status, OffsetDateTime startedAt,
            @Nullable OffsetDateTime endedAt, @Nullable Long bronzeRows, @Nullable Long silverRows, @Nullable Long goldRows,
            @Nullable Long quarantined) {
    }

    /**
     * One check's recent history.
     *
     * @param dataset schema.table
     * @param boundary SOURCE, TRANSFORM, SINK (or what the result recorded)
     * @param checkId the check
     * @param statusByPartition the latest status per partition (only partitions where it was evaluated)
     */
    public record CheckHistory(String dataset, String boundary, String checkId, Map<String, String> statusByPartition) {
        public CheckHistory {
            statusByPartition = Collections.unmodifiableMap(new TreeMap<>(statusByPartition));
        }
    }

    /** True when there is nothing to show (no run recorded). */
    public boolean isEmpty() {
        return runs.isEmpty();
    }

    /**
     * Reads the {@value #RUNS} newest attempts of {@code pipeline} and the quality history of its
     * {@value #PARTITIONS} newest partitions with results; four queries.
     */
    public static RunHistory read(DSLContext dsl, String pipeline) {
        Field<String> pipelineField = DSL.field(DSL.name("pipeline"), String.class);
        Field<OffsetDateTime> started = DSL.field(DSL.name("started_at"), OffsetDateTime.class);
        Field<String> runId = DSL.field(DSL.name("run_id"), String.class);
        List<Run> runs = dsl.select(runId, DSL.field(DSL.name("partition_key"), String.class), DSL.field(DSL.name("attempt"), Integer.class),
                        DSL.field(DSL.name("status"), String.class), started, DSL.field(DSL.name("ended_at"), OffsetDateTime.class),
                        DSL.field(DSL.name("summary_json"), String.class))
                .from(RUN).where(pipelineField.eq(pipeline)).orderBy(started.desc(), runId).limit(RUNS)
                .fetch(r -> run(r.value1(), r.value2(), r.value3(), r.value4(), r.value5(), r.value6(), r.value7()));
        Field<String> partition = DSL.field(DSL.name("partition_key"), String.class);
        List<String> partitions = new ArrayList<>(dsl.selectDistinct(partition).from(QUALITY).where(pipelineField.eq(pipeline))
                .orderBy(partition.desc()).limit(PARTITIONS).fetch(partition));
        partitions.sort(Comparator.naturalOrder());
        Map<String, CheckHistory> checks = new TreeMap<>();
        if (!partitions.isEmpty()) {
            Map<String, Map<String, String>> statuses = new LinkedHashMap<>();
            Map<String, String[]> names = new LinkedHashMap<>();
            for (Record r : dsl.select(f("r", "dataset"), f("r", "boundary"), f("r", "check_id"), f("r", "partition_key"), f("r", "status"))
                    .from(QUALITY.as("r"))
                    .where(f("r", "pipeline").eq(pipeline), f("r", "partition_key").in(partitions),
                            DSL.field(DSL.name("r", "result_id"), Long.class).eq(latestOf()))
                    .fetch()) {
                String key = r.get(0, String.class) + "\u0000" + r.get(2, String.class);
                names.putIfAbsent(key, new String[] {r.get(0, String.class), r.get(1, String.class), r.get(2, String.class)});
                statuses.computeIfAbsent(key, k -> new TreeMap<>()).put(r.get(3, String.class), r.get(4, String.class));
            }
            names.forEach((key, n) -> checks.put(key, new CheckHistory(n[0], n[1], n[2], statuses.get(key))));
        }
        return new RunHistory(runs, partitions, List.copyOf(checks.values()));
    }

    private static Run run(String id, String partition, int attempt, String status, OffsetDateTime started,
            @Nullable OffsetDateTime ended, @Nullable String summaryJson) {
        JsonNode s = null;
        if (summaryJson != null) {
            try {
                s = JSON.readTree(summaryJson);
            } catch (IOException e) {
                s = null; // an unreadable summary shows no row counts
            }
        }
        return new Run(id, partition, attempt, status, started, ended, count(s, "bronzeRows"), count(s, "silverRows"),
                count(s, "goldRows"), count(s, "quarantined"));
    }

    private static @Nullable Long count(@Nullable JsonNode summary, String field) {
        return summary == null || !summary.path(field).isNumber() ? null : summary.path(field).asLong();
    }

    /** The newest result of the same (dataset, check, partition) as row {@code r}. */
    private static Field<Long> latestOf() {
        return DSL.field(DSL.select(DSL.max(DSL.field(DSL.name("r2", "result_id"), Long.class))).from(QUALITY.as("r2")).where(
                f("r2", "dataset").eq(f("r", "dataset")), f("r2", "check_id").eq(f("r", "check_id")),
                f("r2", "partition_key").eq(f("r", "partition_key"))));
    }

    private static Field<String> f(String alias, String name) {
        return DSL.field(DSL.name(alias, name), String.class);
    }
}
