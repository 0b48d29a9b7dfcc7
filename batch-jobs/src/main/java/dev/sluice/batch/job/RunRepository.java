package dev.sluice.batch.job;

import dev.sluice.core.FaultPoints;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

/**
 * {@code sluice.run}: the attempts of each (pipeline, partition), with the spec hash they ran
 * with, requester, trace id, summary and what their lineage emitters did. Auto-commits (outside Spring Batch's transactions).
 * Thread-safe.
 */
public final class RunRepository {

    private static final Table<?> T = DSL.table(DSL.name("sluice", "run"));
    private static final Field<String> RUN_ID = DSL.field(DSL.name("run_id"), String.class);
    private static final Field<String> PIPELINE = DSL.field(DSL.name("pipeline"), String.class);
    private static final Field<String> PARTITION = DSL.field(DSL.name("partition_key"), String.class);
    private static final Field<Integer> ATTEMPT = DSL.field(DSL.name("attempt"), Integer.class);
    private static final Field<String> STATUS = DSL.field(DSL.name("status"), String.class);
    private static final Field<String> SPEC_HASH = DSL.field(DSL.name("spec_hash"), String.class);
    private static final Field<String> REQUESTER = DSL.field(DSL.name("requester"), String.class);
    private static final Field<String> TRACE = DSL.field(DSL.name("trace_id"), String.class);
    private static final Field<Long> JOB_EXECUTION = DSL.field(DSL.name("job_execution_id"), Long.class);
    private static final Field<OffsetDateTime> STARTED = DSL.field(DSL.name("started_at"), OffsetDateTime.class);
    private static final Field<OffsetDateTime> ENDED = DSL.field(DSL.name("ended_at"), OffsetDateTime.class);
    private static final Field<String> MESSAGE = DSL.field(DSL.name("exit_message"), String.class);
    private static final Field<String> SUMMARY = DSL.field(DSL.name("summary_json"), String.class);
    private static final Field<String> HOST = DSL.field(DSL.name("host"), String.class);
    private static final Field<Long> PID = DSL.field(DSL.name("pid"), Long.class);
    private static final Field<Long> LINEAGE_SENT = DSL.field(DSL.name("lineage_sent"), Long.class);
    private static final Field<Long> LINEAGE_DROPPED = DSL.field(DSL.name("lineage_dropped"), Long.class);
    private static final Field<Long> LINEAGE_FAILED = DSL.field(DSL.name("lineage_failed"), Long.class);

    private final DSLContext dsl;

    public RunRepository(DSLContext dsl) {
        this.dsl = dsl;
    }

    /** The newest attempt of a partition, if any. */
    public Optional<RunRecord> latest(String pipeline, Partition partition) {
        return dsl.select(RUN_ID, PIPELINE, PARTITION, ATTEMPT, STATUS, SPEC_HASH, STARTED, ENDED, HOST, PID, TRACE).from(T)
                .where(PIPELINE.eq(pipeline), PARTITION.eq(partition.key()))
                .orderBy(ATTEMPT.desc()).limit(1)
                .fetchOptional(r -> new RunRecord(RunId.parse(r.value1()), r.value2(), r.value3(), r.value4(),
                        r.value5(), r.value6(), r.value7(), r.value8(), r.value9(), r.value10(), r.value11()));
    }

    /**
     * The newest attempt of one partition, as a scheduler judges it.
     *
     * @param partitionKey the partition
     * @param status STARTED, COMPLETED, FAILED, STOPPED or ABANDONED
     * @param startedAt when the attempt first started
     * @param message why it ended so (a failure, a stop's reason), or null
     */
    public record Latest(String partitionKey, String status, OffsetDateTime startedAt, @Nullable String message) {

        /** True when a shutdown stopped it (not a cancel or a timeout): a scheduler resumes it. */
        public boolean stoppedByShutdown() {
            return status.equals("STOPPED") && message != null && message.contains(RunControl.SHUTDOWN);
        }
    }

    /** The newest attempt of every partition of {@code pipeline}, in one query, by partition key. */
    public java.util.SortedMap<String, Latest> latestByPartition(String pipeline) {
        Field<Integer> newest = DSL.select(DSL.max(DSL.field(DSL.name("x", "attempt"), Integer.class))).from(T.as("x"))
                .where(DSL.field(DSL.name("x", "pipeline")).eq(DSL.field(DSL.name("r", "pipeline"))),
                        DSL.field(DSL.name("x", "partition_key")).eq(DSL.field(DSL.name("r", "partition_key")))).asField();
        java.util.SortedMap<String, Latest> out = new java.util.TreeMap<>();
        dsl.select(PARTITION, STATUS, STARTED, MESSAGE).from(T.as("r")).where(PIPELINE.eq(pipeline), ATTEMPT.eq(newest))
                .forEach(r -> out.put(r.value1(), new Latest(r.value1(), r.value2(), r.value3(), r.value4())));
        return out;
    }

    /** Records a new attempt as STARTED. */
    public void start(RunId run, String pipeline, Partition partition, int attempt, String specHash,
            @Nullable String requester, @Nullable String traceId) {
        dsl.insertInto(T).set(RUN_ID, run.toString()).set(PIPELINE, pipeline).set(PARTITION, partition.key())
                .set(ATTEMPT, attempt).set(STATUS, "STARTED").set(SPEC_HASH, specHash).set(REQUESTER, requester)
                .set(TRACE, traceId).set(STARTED, now()).set(HOST, thisHost()).set(PID, ProcessHandle.current().pid())
                .execute();
        FaultPoints.reach("run-record:started");
    }

    /** Marks a failed or stopped attempt as STARTED again for its restart (a cancel request it had is cleared), with the spec hash it now runs with. */
    public void restart(RunId run, String specHash) {
        dsl.update(T).set(STATUS, "STARTED").set(SPEC_HASH, specHash).setNull(ENDED).setNull(MESSAGE)
                .setNull(DSL.field(DSL.name("cancel_requested_at"))).setNull(DSL.field(DSL.name("cancel_requested_by")))
                .set(HOST, thisHost()).set(PID, ProcessHandle.current().pid())
                .where(RUN_ID.eq(run.toString())).execute();
        FaultPoints.reach("run-record:started");
    }

    /** Marks a failed attempt ABANDONED (given up for a --rerun). */
    public void abandon(RunId run) {
        dsl.update(T).set(STATUS, "ABANDONED").where(RUN_ID.eq(run.toString())).execute();
    }

    /**
     * Records the end of an attempt's execution.
     *
     * @param lineage what the execution's lineage emitters did (its queue is not used): added to
     *     what earlier executions of the attempt recorded ({@code lineage_sent}, {@code lineage_dropped},
     *     {@code lineage_failed}, events)
     */
    public void finish(RunId run, String status, long jobExecutionId, @Nullable String message, String summaryJson,
            dev.sluice.lineage.LineageEmitter.Stats lineage) {
        dsl.update(T).set(STATUS, status).set(ENDED, now()).set(JOB_EXECUTION, jobExecutionId)
                .set(MESSAGE, message == null ? null : dev.sluice.core.BoundedText.cut(message, 4000))
                .set(SUMMARY, summaryJson)
                .set(LINEAGE_SENT, LINEAGE_SENT.plus(lineage.sent())).set(LINEAGE_DROPPED, LINEAGE_DROPPED.plus(lineage.dropped()))
                .set(LINEAGE_FAILED, LINEAGE_FAILED.plus(lineage.failed()))
                .where(RUN_ID.eq(run.toString())).execute();
        FaultPoints.reach("run-record:finished");
    }

    /** This machine's host name, as recorded with each run. */
    public static String thisHost() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            return "localhost";
        }
    }

    private static OffsetDateTime now() {
        return OffsetDateTime.now(ZoneOffset.UTC);
    }
}
