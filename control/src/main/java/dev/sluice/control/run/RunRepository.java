package dev.sluice.control.run;

import dev.sluice.core.BoundedText;
import dev.sluice.core.FaultPoints;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

/**
 * {@code sluice.run}: the attempts of each (pipeline, partition), with the spec hash they ran
 * with, requester, trace id, summary and what their lineage emitters did. Auto-commits (outside Spring Batch's transactions).
 * Thread-safe.
 */
public final class RunRepository {

    /** The table's qualified name, {@code sluice.run}, for messages and help texts. */
    public static final String TABLE_NAME = "sluice.run";
    /** The table, for the few read-only queries of other modules (purge, design documents, metrics); prefer the methods. */
    public static final Table<Record> TABLE = DSL.table(DSL.name("sluice", "run"));
    private static final Table<?> T = TABLE;
    private static final Field<OffsetDateTime> CANCEL_AT = DSL.field(DSL.name("cancel_requested_at"), OffsetDateTime.class);
    private static final Field<String> CANCEL_BY = DSL.field(DSL.name("cancel_requested_by"), String.class);
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
    private static final Field<String> STOP_CAUSE = DSL.field(DSL.name("stop_cause"), String.class);
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
                        RunStatus.of(r.value5()), r.value6(), r.value7(), r.value8(), r.value9(), r.value10(), r.value11()));
    }

    /**
     * The newest attempt of one partition, as a scheduler judges it.
     *
     * @param partitionKey the partition
     * @param status its status
     * @param startedAt when the attempt first started
     * @param message why it ended so (a failure, a stop's reason), or null
     * @param stopCause why a STOPPED attempt was stopped; null for any other status
     */
    public record Latest(String partitionKey, RunStatus status, OffsetDateTime startedAt, @Nullable String message,
            @Nullable StopCause stopCause) {

        /** True when a shutdown stopped it (not a cancel or a timeout): a scheduler resumes it. */
        public boolean stoppedByShutdown() {
            return status == RunStatus.STOPPED && stopCause == StopCause.SHUTDOWN;
        }
    }

    /**
     * The newest attempt number of the pipeline and partition of the row of {@link #TABLE} aliased
     * {@code outer}: a correlated subquery over the same table (aliased {@code x}) for
     * {@code WHERE outer.attempt = newestAttemptOf(outer)}, which keeps each partition's newest
     * attempt in the one query.
     */
    public static Field<Integer> newestAttemptOf(String outer) {
        return DSL.select(DSL.max(DSL.field(DSL.name("x", "attempt"), Integer.class))).from(T.as("x"))
                .where(DSL.field(DSL.name("x", "pipeline")).eq(DSL.field(DSL.name(outer, "pipeline"))),
                        DSL.field(DSL.name("x", "partition_key")).eq(DSL.field(DSL.name(outer, "partition_key")))).asField();
    }

    /** The newest attempt of every partition of {@code pipeline}, in one query, by partition key. */
    public SortedMap<String, Latest> latestByPartition(String pipeline) {
        return latestByPartition(pipeline, EnumSet.allOf(RunStatus.class));
    }

    /** The newest attempt of each partition of {@code pipeline} whose status is one of {@code statuses}, by partition key. */
    public SortedMap<String, Latest> latestByPartition(String pipeline, Set<RunStatus> statuses) {
        Field<Integer> newest = newestAttemptOf("r");
        SortedMap<String, Latest> out = new TreeMap<>();
        dsl.select(PARTITION, STATUS, STARTED, MESSAGE, STOP_CAUSE).from(T.as("r")).where(PIPELINE.eq(pipeline), ATTEMPT.eq(newest),
                        STATUS.in(statuses.stream().map(Enum::name).toList()))
                .forEach(r -> out.put(r.value1(), new Latest(r.value1(), RunStatus.of(r.value2()), r.value3(), r.value4(),
                        r.value5() == null ? null : StopCause.valueOf(r.value5()))));
        return out;
    }

    /**
     * The partitions of {@code pipeline} whose newest attempt is STARTED but whose process is gone
     * ({@link RunRecord#processGone}: this host, not alive): killed, restarted by the next plain run.
     * Sorted by key.
     */
    public List<String> killedPartitions(String pipeline) {
        Field<Integer> newest = newestAttemptOf("r");
        String host = thisHost();
        return dsl.select(PARTITION, HOST, PID).from(T.as("r"))
                .where(PIPELINE.eq(pipeline), ATTEMPT.eq(newest), STATUS.eq(RunStatus.STARTED.name())).orderBy(PARTITION).fetch().stream()
                .filter(r -> RunRecord.processGone(r.value2(), r.value3(), host)).map(r -> r.value1()).toList();
    }

    /** Records a new attempt as STARTED. */
    public void start(RunId run, String pipeline, Partition partition, int attempt, String specHash,
            @Nullable String requester, @Nullable String traceId) {
        dsl.insertInto(T).set(RUN_ID, run.toString()).set(PIPELINE, pipeline).set(PARTITION, partition.key())
                .set(ATTEMPT, attempt).set(STATUS, RunStatus.STARTED.name()).set(SPEC_HASH, specHash).set(REQUESTER, requester)
                .set(TRACE, traceId).set(STARTED, now()).set(HOST, thisHost()).set(PID, ProcessHandle.current().pid())
                .execute();
        FaultPoints.reach("run-record:started");
    }

    /** Marks a failed or stopped attempt as STARTED again for its restart (a cancel request it had is cleared), with the spec hash it now runs with. */
    public void restart(RunId run, String specHash) {
        dsl.update(T).set(STATUS, RunStatus.STARTED.name()).set(SPEC_HASH, specHash).setNull(ENDED).setNull(MESSAGE).setNull(STOP_CAUSE)
                .setNull(CANCEL_AT).setNull(CANCEL_BY)
                .set(HOST, thisHost()).set(PID, ProcessHandle.current().pid())
                .where(RUN_ID.eq(run.toString())).execute();
        FaultPoints.reach("run-record:started");
    }

    /** Marks a failed attempt ABANDONED (given up for a --rerun). */
    public void abandon(RunId run) {
        dsl.update(T).set(STATUS, RunStatus.ABANDONED.name()).where(RUN_ID.eq(run.toString())).execute();
    }

    /**
     * Records the end of an attempt's execution.
     *
     * @param stopCause why a STOPPED attempt was stopped; null for any other status
     * @param lineage what the execution's lineage emitters did (its queue is not used): added to
     *     what earlier executions of the attempt recorded ({@code lineage_sent}, {@code lineage_dropped},
     *     {@code lineage_failed}, events)
     */
    public void finish(RunId run, RunStatus status, @Nullable StopCause stopCause, long jobExecutionId, @Nullable String message,
            String summaryJson, LineageCounts lineage) {
        dsl.update(T).set(STATUS, status.name()).set(STOP_CAUSE, stopCause == null ? null : stopCause.name())
                .set(ENDED, now()).set(JOB_EXECUTION, jobExecutionId)
                .set(MESSAGE, message == null ? null : BoundedText.cut(message, 4000))
                .set(SUMMARY, summaryJson)
                .set(LINEAGE_SENT, LINEAGE_SENT.plus(lineage.sent())).set(LINEAGE_DROPPED, LINEAGE_DROPPED.plus(lineage.dropped()))
                .set(LINEAGE_FAILED, LINEAGE_FAILED.plus(lineage.failed()))
                .where(RUN_ID.eq(run.toString())).execute();
        FaultPoints.reach("run-record:finished");
    }

    /**
     * Records a cancel request for {@code run} when it is STARTED (any process may): the process
     * running it sees it within its {@code execution.control_poll} ({@code RunControl}).
     *
     * @return true when the run was STARTED and the request was recorded
     */
    public boolean requestCancel(RunId run, String requester) {
        return dsl.update(T).set(CANCEL_AT, now()).set(CANCEL_BY, requester)
                .where(RUN_ID.eq(run.toString()), STATUS.eq(RunStatus.STARTED.name())).execute() == 1;
    }

    /** A cancel request recorded for a run: who asked, when. */
    public record CancelRequest(String requestedBy, OffsetDateTime requestedAt) {
    }

    /** The cancel request recorded for {@code run}, if any. */
    public Optional<CancelRequest> cancelRequest(RunId run) {
        return dsl.select(CANCEL_BY, CANCEL_AT).from(T).where(RUN_ID.eq(run.toString()), CANCEL_AT.isNotNull())
                .fetchOptional(r -> new CancelRequest(String.valueOf(r.value1()), r.value2()));
    }

    /** Where an attempt runs or last ran: host and pid (either may be null). */
    public record Owner(@Nullable String host, @Nullable Long pid) {
    }

    /** The host and pid recorded for {@code run}, if the run is recorded. */
    public Optional<Owner> owner(RunId run) {
        return dsl.select(HOST, PID).from(T).where(RUN_ID.eq(run.toString())).fetchOptional(r -> new Owner(r.value1(), r.value2()));
    }

    /** The status of {@code run}, if it is recorded. */
    public Optional<RunStatus> status(RunId run) {
        return dsl.select(STATUS).from(T).where(RUN_ID.eq(run.toString())).fetchOptional(r -> RunStatus.of(r.value1()));
    }

    /** The STARTED attempts whose trace id is {@code traceId} (a backfill's running partitions). */
    public List<RunId> startedWithTrace(String traceId) {
        return dsl.select(RUN_ID).from(T).where(TRACE.eq(traceId), STATUS.eq(RunStatus.STARTED.name()))
                .fetch(r -> RunId.parse(r.value1()));
    }

    /** The newest partition key of {@code pipeline} with a COMPLETED attempt, or null. */
    public @Nullable String lastCompletedPartition(String pipeline) {
        return dsl.select(DSL.max(PARTITION)).from(T).where(PIPELINE.eq(pipeline), STATUS.eq(RunStatus.COMPLETED.name()))
                .fetchOne(0, String.class);
    }

    /** The first and last daily partition keys ({@code YYYY-MM-DD}) of {@code pipeline} with a COMPLETED attempt, if any. */
    public Optional<String[]> completedDailyRange(String pipeline) {
        var r = dsl.select(DSL.min(PARTITION), DSL.max(PARTITION)).from(T)
                .where(PIPELINE.eq(pipeline), STATUS.eq(RunStatus.COMPLETED.name()), DSL.charLength(PARTITION).eq(10)).fetchOne();
        return r == null || r.value1() == null ? Optional.empty() : Optional.of(new String[] {r.value1(), r.value2()});
    }

    /** This machine's host name, as recorded with each run. */
    public static String thisHost() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }

    private static OffsetDateTime now() {
        return OffsetDateTime.now(ZoneOffset.UTC);
    }
}
