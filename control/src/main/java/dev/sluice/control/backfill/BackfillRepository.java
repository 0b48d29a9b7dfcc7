package dev.sluice.control.backfill;


import dev.sluice.control.run.RunRecord;
import dev.sluice.control.run.RunRepository;
import dev.sluice.control.run.RunStatus;
import dev.sluice.core.FaultPoints;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
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
 * {@code sluice.backfill} and {@code sluice.backfill_partition}: each backfill with its state and
 * invocations, and the state of every partition it covers. Auto-commits. Thread-safe.
 */
public final class BackfillRepository {

    /** {@code sluice.backfill}, for read-only queries of other modules (the catalog API). */
    public static final Table<?> BACKFILLS = DSL.table(DSL.name("sluice", "backfill"));
    /** {@code sluice.backfill_partition}, for read-only queries of other modules (the catalog API). */
    public static final Table<?> PARTITIONS = DSL.table(DSL.name("sluice", "backfill_partition"));
    private static final Table<?> B = BACKFILLS;
    private static final Table<?> P = PARTITIONS;
    private static final Field<String> ID = DSL.field(DSL.name("backfill_id"), String.class);
    private static final Field<String> PIPELINE = DSL.field(DSL.name("pipeline"), String.class);
    private static final Field<String> FROM = DSL.field(DSL.name("from_key"), String.class);
    private static final Field<String> TO = DSL.field(DSL.name("to_key"), String.class);
    private static final Field<Boolean> RERUN = DSL.field(DSL.name("rerun"), Boolean.class);
    private static final Field<String> STATUS = DSL.field(DSL.name("status"), String.class);
    /** A backfill's state while an invocation runs it. */
    private static final String RUNNING = BackfillStatus.RUNNING.name();
    private static final Field<Integer> INVOCATIONS = DSL.field(DSL.name("invocations"), Integer.class);
    private static final Field<String> SPEC_HASH = DSL.field(DSL.name("spec_hash"), String.class);
    private static final Field<String> REQUESTER = DSL.field(DSL.name("requester"), String.class);
    private static final Field<OffsetDateTime> STARTED = DSL.field(DSL.name("started_at"), OffsetDateTime.class);
    private static final Field<OffsetDateTime> ENDED = DSL.field(DSL.name("ended_at"), OffsetDateTime.class);
    private static final Field<String> PARTITION = DSL.field(DSL.name("partition_key"), String.class);
    private static final Field<String> ACTION = DSL.field(DSL.name("action"), String.class);
    private static final Field<String> RUN_ID = DSL.field(DSL.name("run_id"), String.class);
    private static final Field<String> MESSAGE = DSL.field(DSL.name("message"), String.class);
    private static final Field<String> CHANGED = DSL.field(DSL.name("changed_dataset"), String.class);
    private static final Field<String> STEPS = DSL.field(DSL.name("steps"), String.class);
    private static final Field<OffsetDateTime> UPDATED = DSL.field(DSL.name("updated_at"), OffsetDateTime.class);
    private static final Field<String> HOST = DSL.field(DSL.name("host"), String.class);
    private static final Field<Long> PID = DSL.field(DSL.name("pid"), Long.class);

    private final DSLContext dsl;

    public BackfillRepository(DSLContext dsl) {
        this.dsl = dsl;
    }

    /**
     * An unfinished backfill (RUNNING when its process died, or FAILED).
     *
     * @param id its id
     * @param rerun whether it re-runs COMPLETED partitions
     * @param invocations how often it was invoked so far
     */
    public record Unfinished(RunId id, boolean rerun, int invocations) {
    }


    /**
     * The newest backfill of exactly this range of {@code pipeline} planned from {@code changed}
     * (null: a plain backfill) that did not complete, if any.
     */
    public Optional<Unfinished> unfinished(String pipeline, LocalDate from, LocalDate to, @Nullable DatasetRef changed) {
        Record r = dsl.select(ID, RERUN, INVOCATIONS, STATUS).from(B)
                .where(PIPELINE.eq(pipeline), FROM.eq(from.toString()), TO.eq(to.toString()),
                        changed == null ? CHANGED.isNull() : CHANGED.eq(changed.qualifiedName()))
                .orderBy(STARTED.desc()).limit(1).fetchOne();
        if (r == null || RunStatus.COMPLETED.name().equals(r.get(STATUS))) {
            return Optional.empty();
        }
        return Optional.of(new Unfinished(RunId.parse(r.get(ID)), r.get(RERUN), r.get(INVOCATIONS)));
    }

    /** The state of each partition {@code backfill} has begun: key → status (RUNNING, COMPLETED, FAILED, …). */
    public Map<String, PartitionStatus> partitionStates(RunId backfill) {
        Map<String, PartitionStatus> out = new LinkedHashMap<>();
        dsl.select(PARTITION, STATUS).from(P).where(ID.eq(backfill.toString())).orderBy(PARTITION)
                .forEach(r -> out.put(r.get(PARTITION), PartitionStatus.valueOf(r.get(STATUS))));
        return out;
    }

    /** The status of backfill {@code id}, if it is recorded. */
    public Optional<BackfillStatus> status(RunId id) {
        return dsl.select(STATUS).from(B).where(ID.eq(id.toString())).fetchOptional(STATUS).map(BackfillStatus::valueOf);
    }

    /**
     * True when backfill {@code id} is RUNNING but the process of its latest invocation is gone
     * ({@link RunRecord#processGone}: this host, not alive): killed, also between two partitions
     * where no attempt of it is left STARTED. The next {@code sluice backfill} of the same range
     * resumes it. False for an unknown id, another status, another host, or a backfill recorded
     * before its process was (host or pid NULL).
     */
    public boolean processGone(RunId id) {
        Record r = dsl.select(STATUS, HOST, PID).from(B).where(ID.eq(id.toString())).fetchOne();
        return r != null && RUNNING.equals(r.get(STATUS)) && RunRecord.processGone(r.get(HOST), r.get(PID), RunRepository.thisHost());
    }

    /** Records a new backfill, RUNNING, first invocation. */
    public void start(RunId id, String pipeline, LocalDate from, LocalDate to, boolean rerun, String specHash, @Nullable String requester,
            @Nullable DatasetRef changed) {
        dsl.insertInto(B).set(ID, id.toString()).set(PIPELINE, pipeline).set(FROM, from.toString()).set(TO, to.toString())
                .set(CHANGED, changed == null ? null : changed.qualifiedName())
                .set(RERUN, rerun).set(STATUS, RUNNING).set(INVOCATIONS, 1).set(SPEC_HASH, specHash).set(REQUESTER, requester)
                .set(STARTED, now()).set(HOST, RunRepository.thisHost()).set(PID, ProcessHandle.current().pid()).execute();
    }

    /** Marks an unfinished backfill RUNNING again, one invocation more. */
    public void resume(RunId id, String specHash) {
        dsl.update(B).set(STATUS, RUNNING).set(INVOCATIONS, INVOCATIONS.plus(1)).set(SPEC_HASH, specHash)
                .set(HOST, RunRepository.thisHost()).set(PID, ProcessHandle.current().pid())
                .setNull(ENDED).setNull(DSL.field(DSL.name("cancel_requested_at"))).setNull(DSL.field(DSL.name("cancel_requested_by"))).where(ID.eq(id.toString())).execute();
    }

    /** Records the state of one partition of {@code backfill}, running every table. */
    public void partition(RunId backfill, Partition partition, Action action, PartitionStatus status, @Nullable RunId run, @Nullable String message) {
        partition(backfill, partition, null, action, status, run, message);
    }

    /** Records the state of one partition of {@code backfill} that runs {@code tables} (null: every table). */
    public void partition(RunId backfill, Partition partition, @Nullable List<String> tables, Action action, PartitionStatus status,
            @Nullable RunId run, @Nullable String message) {
        String steps = tables == null ? null : String.join(",", tables);
        String m = message == null || message.length() <= 4000 ? message : message.substring(0, 3997) + "...";
        String runId = run == null ? null : run.toString();
        // one writer per (backfill, partition): an update, else the first insert
        int updated = dsl.update(P).set(ACTION, action.name()).set(STATUS, status.name()).set(RUN_ID, runId).set(MESSAGE, m).set(UPDATED, now())
                .set(STEPS, steps)
                .where(ID.eq(backfill.toString()), PARTITION.eq(partition.key())).execute();
        if (updated == 0) {
            dsl.insertInto(P).set(ID, backfill.toString()).set(PARTITION, partition.key()).set(ACTION, action.name())
                    .set(STATUS, status.name()).set(RUN_ID, runId).set(MESSAGE, m).set(UPDATED, now()).set(STEPS, steps).execute();
        }
        FaultPoints.reach("backfill-partition:" + status);
    }

    /**
     * Records a cancel request for backfill {@code id} when it is RUNNING: it starts no further
     * partition, and the caller asks its running partitions to stop.
     *
     * @return true when it was RUNNING
     */
    public boolean requestCancel(RunId id, String requester) {
        return dsl.update(B).set(DSL.field(DSL.name("cancel_requested_at"), OffsetDateTime.class), now())
                .set(DSL.field(DSL.name("cancel_requested_by"), String.class), requester)
                .where(ID.eq(id.toString()), STATUS.eq(RUNNING)).execute() == 1;
    }

    /** Who asked to cancel backfill {@code id} and when, or null when nobody did during this invocation. */
    public @Nullable String cancelRequest(RunId id) {
        Record r = dsl.select(DSL.field(DSL.name("cancel_requested_by")), DSL.field(DSL.name("cancel_requested_at"))).from(B)
                .where(ID.eq(id.toString()), DSL.field(DSL.name("cancel_requested_at")).isNotNull()).fetchOne();
        return r == null ? null : r.get(0) + " at " + r.get(1);
    }

    /** How often backfill {@code id} was invoked. */
    public int invocations(RunId id) {
        Integer n = dsl.select(INVOCATIONS).from(B).where(ID.eq(id.toString())).fetchOne(INVOCATIONS);
        return n == null ? 0 : n;
    }

    /** Ends an invocation: COMPLETED, FAILED or STOPPED ({@link BackfillStatus#of}). */
    public void finish(RunId id, RunStatus status) {
        dsl.update(B).set(STATUS, BackfillStatus.of(status).name()).set(ENDED, now()).where(ID.eq(id.toString())).execute();
    }

    private static OffsetDateTime now() {
        return OffsetDateTime.now(ZoneOffset.UTC);
    }
}
