package dev.sluice.control.quality;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import dev.sluice.quality.CheckResult;
import dev.sluice.quality.CheckStatus;
import dev.sluice.quality.GateResult;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Query;
import org.jooq.Record;
import org.jooq.Result;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

/**
 * {@code sluice.quality_results}: each check of each gate evaluation, and what later evaluations
 * read back (the accepted metric history of anomaly checks, the current results of a partition).
 * Statements join the caller's transaction when there is one. Thread-safe.
 */
public final class QualityResultRepository {

    /** How many accepted earlier partitions an anomaly check sees at most. */
    static final int HISTORY_LIMIT = 400;
    private static final ObjectMapper JSON = new ObjectMapper().findAndRegisterModules();
    /** The table's qualified name, {@code sluice.quality_results}, for messages and help texts. */
    public static final String TABLE_NAME = "sluice.quality_results";
    /** The table, for read-only queries of other modules (design documents, the catalog API, metrics). */
    public static final Table<?> TABLE = DSL.table(DSL.name("sluice", "quality_results"));
    private static final Table<?> T = TABLE;
    private static final Field<Long> ID = DSL.field(DSL.name("result_id"), Long.class);
    private static final Field<String> DATASET = DSL.field(DSL.name("dataset"), String.class);
    private static final Field<String> PARTITION = DSL.field(DSL.name("partition_key"), String.class);
    private static final Field<String> CHECK = DSL.field(DSL.name("check_id"), String.class);
    private static final Field<String> STATUS = DSL.field(DSL.name("status"), String.class);
    private static final Field<Double> METRIC = DSL.field(DSL.name("metric"), Double.class);

    private final DSLContext dsl;

    public QualityResultRepository(DSLContext dsl) {
        this.dsl = dsl;
    }

    /** Records every check of {@code gate}. */
    public void save(String pipeline, RunId run, GateResult gate) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        List<Query> inserts = new ArrayList<>();
        for (CheckResult c : gate.checks()) {
            Map<Field<?>, Object> row = new LinkedHashMap<>();
            row.put(DSL.field(DSL.name("pipeline")), pipeline);
            row.put(DATASET, gate.dataset().qualifiedName());
            row.put(PARTITION, gate.partition().key());
            row.put(DSL.field(DSL.name("run_id")), run.toString());
            row.put(DSL.field(DSL.name("boundary")), gate.boundary().name());
            row.put(CHECK, c.checkId());
            row.put(DSL.field(DSL.name("expectation")), c.expectation());
            row.put(DSL.field(DSL.name("family")), c.family().name());
            row.put(DSL.field(DSL.name("severity")), c.severity().name());
            row.put(STATUS, c.status().name());
            row.put(METRIC, c.metric() == null || c.metric().isNaN() ? null : c.metric());
            row.put(DSL.field(DSL.name("observed_value")), c.observedValue() == null ? null : cut(observed(c.observedValue()), 4000));
            row.put(DSL.field(DSL.name("threshold")), cut(c.threshold(), 1000));
            row.put(DSL.field(DSL.name("message")), cut(c.message(), 4000));
            row.put(DSL.field(DSL.name("element_count")), c.elementCount());
            row.put(DSL.field(DSL.name("unexpected_count")), c.unexpectedCount());
            row.put(DSL.field(DSL.name("unexpected_json")), c.unexpectedValues().isEmpty() ? null : cut(json(c), 20000));
            row.put(DSL.field(DSL.name("gate_elapsed_ms")), gate.elapsedMs());
            row.put(DSL.field(DSL.name("evaluated_at")), now);
            inserts.add(dsl.insertInto(T).set(row));
        }
        if (!inserts.isEmpty()) {
            dsl.batch(inserts).execute(); // one round trip for the gate's checks
        }
    }

    /**
     * The accepted metric values of {@code checkId} on {@code dataset} in partitions before
     * {@code before}, oldest first: per partition its latest evaluation, when that one PASSED or had
     * insufficient history (an anomaly that was warned about is not taken as normal).
     */
    public List<Double> acceptedHistory(DatasetRef dataset, String checkId, Partition before) {
        return new ArrayList<>(acceptedHistoryByPartition(dataset, checkId, before).values());
    }

    /**
     * The accepted metric values (latest result PASSED or INSUFFICIENT_HISTORY) of check
     * {@code checkId} on partitions before {@code before}, among the latest {@value #HISTORY_LIMIT}
     * partitions with a value, keyed and ordered by partition.
     */
    public SortedMap<Partition, Double> acceptedHistoryByPartition(DatasetRef dataset, String checkId, Partition before) {
        Result<? extends Record> rows = dsl.select(f("r", "partition_key", String.class), f("r", "metric", Double.class),
                        f("r", "status", String.class)).from(T.as("r"))
                .where(f("r", "dataset", String.class).eq(dataset.qualifiedName()), f("r", "check_id", String.class).eq(checkId),
                        f("r", "partition_key", String.class).lt(before.key()), f("r", "result_id", Long.class).eq(latestOf("r")),
                        f("r", "metric", Double.class).isNotNull())
                .orderBy(f("r", "partition_key", String.class).desc()).limit(HISTORY_LIMIT).fetch();
        SortedMap<Partition, Double> out = new TreeMap<>();
        for (Record row : rows) {
            String status = row.get(2, String.class);
            if (CheckStatus.PASSED.name().equals(status) || CheckStatus.INSUFFICIENT_HISTORY.name().equals(status)) {
                out.put(new Partition(row.get(0, String.class)), row.get(1, Double.class));
            }
        }
        return out;
    }

    /** The latest result of each check of each dataset of {@code pipeline} for {@code partition}, in evaluation order. */
    public Result<? extends Record> latest(String pipeline, Partition partition) {
        return dsl.select(DSL.table(DSL.name("r")).asterisk()).from(T.as("r"))
                .where(f("r", "pipeline", String.class).eq(pipeline), f("r", "partition_key", String.class).eq(partition.key()),
                        f("r", "result_id", Long.class).eq(latestOf("r")))
                .orderBy(f("r", "result_id", Long.class)).fetch();
    }

    /** One check's latest result in a run: what lineage reports of a gate. */
    public record RunResult(String checkId, String expectation, String status, long elementCount, long unexpectedCount) {
    }

    /** The latest result of each check of {@code dataset} partition {@code partition} in run {@code run}, in evaluation order. */
    public List<RunResult> latestOfRun(DatasetRef dataset, Partition partition, RunId run) {
        return dsl.select(f("r", "check_id", String.class), f("r", "expectation", String.class), f("r", "status", String.class),
                        f("r", "element_count", Long.class), f("r", "unexpected_count", Long.class))
                .from(T.as("r"))
                .where(f("r", "dataset", String.class).eq(dataset.qualifiedName()), f("r", "partition_key", String.class).eq(partition.key()),
                        f("r", "run_id", String.class).eq(run.toString()), f("r", "result_id", Long.class).eq(latestOf("r")))
                .orderBy(f("r", "result_id", Long.class))
                .fetch(r -> new RunResult(r.value1(), r.value2(), r.value3(), r.value4(), r.value5()));
    }

    /**
     * The id of the latest evaluation of the same (dataset, partition, check) as the row of
     * {@code sluice.quality_results} aliased {@code alias}: {@code result_id = latestOf(alias)}
     * keeps each check's current result. (A correlated subquery over alias {@code r2}.)
     */
    public static Field<Long> latestOf(String alias) {
        return DSL.field(DSL.select(DSL.max(f("r2", "result_id", Long.class))).from(T.as("r2")).where(
                f("r2", "dataset", String.class).eq(f(alias, "dataset", String.class)),
                f("r2", "check_id", String.class).eq(f(alias, "check_id", String.class)),
                f("r2", "partition_key", String.class).eq(f(alias, "partition_key", String.class))));
    }

    private static <T> Field<T> f(String alias, String name, Class<T> type) {
        return DSL.field(DSL.name(alias, name), type);
    }

    private static String json(CheckResult c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("values", c.unexpectedValues().stream().map(v -> v == null ? null : v instanceof Number ? v : v.toString()).toList());
        if (!c.unexpectedRowIds().isEmpty()) {
            m.put("row_ids", c.unexpectedRowIds());
        }
        try {
            return JSON.writeValueAsString(m);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** An observed value as stored: a number or text as it is, a list or map (quantiles, distinct values) as JSON. */
    private static String observed(Object value) {
        if (value instanceof java.util.Collection<?> || value instanceof Map<?, ?>) {
            try {
                return JSON.writeValueAsString(value);
            } catch (JsonProcessingException e) {
                return String.valueOf(value);
            }
        }
        return String.valueOf(value);
    }

    private static @Nullable String cut(@Nullable String s, int max) {
        return s == null || s.length() <= max ? s : s.substring(0, max - 1) + "…";
    }
}
