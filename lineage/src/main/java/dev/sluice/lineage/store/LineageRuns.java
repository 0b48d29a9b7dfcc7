package dev.sluice.lineage.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.SluiceException;
import java.io.IOException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BinaryOperator;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.exception.IntegrityConstraintViolationException;
import org.jooq.impl.DSL;

/**
 * {@code sluice.lineage_run} and {@code sluice.lineage_run_dataset}: the runs of other tools whose
 * events {@code sluice serve} ingested, each folded from all of its stored events
 * ({@link LineageRun#fold}) and recomputed when one more arrives, so that events may come in any
 * order. Sluice's own runs are not here (they are {@code sluice.run} and the lineage edges).
 * Thread-safe: within one JVM the events of a run are folded one at a time; two processes
 * ingesting events of the same run at the same instant may leave it one event behind until its
 * next event.
 */
public final class LineageRuns {

    /** {@code sluice.lineage_run}: one row per ingested run. */
    public static final Table<?> RUNS = DSL.table(DSL.name("sluice", "lineage_run"));
    /** {@code sluice.lineage_run_dataset}: (run, input|output, dataset name) of each ingested run. */
    public static final Table<?> DATASETS = DSL.table(DSL.name("sluice", "lineage_run_dataset"));
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Object[] LOCKS = new Object[64];

    static {
        for (int i = 0; i < LOCKS.length; i++) {
            LOCKS[i] = new Object();
        }
    }

    private final DSLContext dsl;

    public LineageRuns(DSLContext dsl) {
        this.dsl = dsl;
    }

    private static Field<String> s(String name) {
        return DSL.field(DSL.name(name), String.class);
    }

    private static Field<OffsetDateTime> t(String name) {
        return DSL.field(DSL.name(name), OffsetDateTime.class);
    }

    /**
     * Folds the stored events of {@code runId} again and replaces its row and datasets.
     *
     * @param knownAs (namespace, name) of a dataset → the name Sluice knows it by
     */
    /**
     * The monitor that serialises the writers of one run in this JVM (one of 64, by the run id's
     * hash). {@link LineageRepository#storeForeign} holds it across its whole transaction, so the
     * fold of a run sees every event a concurrent request of the same run committed before it.
     */
    static Object lock(String runId) {
        return LOCKS[Math.floorMod(runId.hashCode(), LOCKS.length)];
    }

    void refresh(String runId, BinaryOperator<String> knownAs) {
        synchronized (lock(runId)) {
            List<JsonNode> events = new ArrayList<>();
            for (String json : dsl.select(s("event_json")).from(LineageRepository.EVENTS).where(s("run_id").eq(runId)).fetch(0, String.class)) {
                try {
                    events.add(JSON.readTree(json));
                } catch (IOException e) {
                    throw new SluiceException("a stored lineage event of run " + runId + " is not JSON: " + e.getMessage(), e);
                }
            }
            LineageRun r = LineageRun.fold(runId, events, knownAs);
            String partition = events.stream().map(e -> e.path("run").path("facets").path("sluice_run").path("partition"))
                    .filter(JsonNode::isTextual).map(JsonNode::asText).reduce((a, b) -> b).orElse("none");
            try {
                replace(r, partition);
            } catch (IntegrityConstraintViolationException raced) {
                replace(r, partition); // another process wrote the run between our delete and insert
            }
        }
    }

    private void replace(LineageRun r, String partition) {
        dsl.transaction(c -> {
            DSLContext tx = c.dsl();
            tx.deleteFrom(DATASETS).where(s("run_id").eq(r.runId())).execute();
            tx.deleteFrom(RUNS).where(s("run_id").eq(r.runId())).execute();
            tx.insertInto(RUNS)
                    .set(s("run_id"), r.runId())
                    .set(s("namespace"), r.namespace())
                    .set(s("job"), r.job())
                    .set(s("state"), r.state())
                    .set(s("parent_run_id"), r.parentRunId())
                    .set(s("parent_job"), r.parentJob())
                    .set(s("partition_key"), partition)
                    .set(t("nominal_start_time"), r.nominalStartTime())
                    .set(t("nominal_end_time"), r.nominalEndTime())
                    .set(s("error_message"), r.errorMessage())
                    .set(t("started_at"), r.startedAt())
                    .set(t("ended_at"), r.endedAt())
                    .set(DSL.field(DSL.name("events"), Integer.class), r.events())
                    .set(s("facets_json"), r.facets().toString())
                    .execute();
            for (String in : r.inputs()) {
                tx.insertInto(DATASETS).set(s("run_id"), r.runId()).set(s("role"), "input").set(s("name"), in).execute();
            }
            for (String out : r.outputs()) {
                tx.insertInto(DATASETS).set(s("run_id"), r.runId()).set(s("role"), "output").set(s("name"), out).execute();
            }
        });
    }

    /** The ingested run {@code runId}, or empty when no event of another tool names it. */
    public Optional<LineageRun> find(String runId) {
        Record r = dsl.select(s("namespace"), s("job"), s("state"), s("parent_run_id"), s("parent_job"), t("nominal_start_time"),
                t("nominal_end_time"), s("error_message"), t("started_at"), t("ended_at"), DSL.field(DSL.name("events"), Integer.class),
                s("facets_json")).from(RUNS).where(s("run_id").eq(runId)).fetchOne();
        if (r == null) {
            return Optional.empty();
        }
        List<String> inputs = new ArrayList<>();
        List<String> outputs = new ArrayList<>();
        for (var d : dsl.select(s("role"), s("name")).from(DATASETS).where(s("run_id").eq(runId)).orderBy(s("name")).fetch()) {
            ("input".equals(d.value1()) ? inputs : outputs).add(d.value2());
        }
        JsonNode facets;
        try {
            facets = JSON.readTree(r.get(11, String.class));
        } catch (IOException e) {
            throw new SluiceException("the stored facets of run " + runId + " are not JSON: " + e.getMessage(), e);
        }
        return Optional.of(new LineageRun(runId, r.get(0, String.class), r.get(1, String.class), r.get(2, String.class), r.get(3, String.class),
                r.get(4, String.class), r.get(5, OffsetDateTime.class), r.get(6, OffsetDateTime.class), r.get(7, String.class),
                r.get(8, OffsetDateTime.class), r.get(9, OffsetDateTime.class), r.get(10, Integer.class), facets, inputs, outputs));
    }
}
