package dev.sluice.lineage;

import dev.sluice.config.LineageSpec;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import dev.sluice.lineage.internal.openlineage.OpenLineageEmitter;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Records what a run read and wrote, as OpenLineage run events. Emission never fails a job and
 * never blocks it beyond its queue bound; implementations are thread-safe.
 */
public interface LineageEmitter extends AutoCloseable {

    /** An emitter that records nothing. */
    LineageEmitter NOOP = new LineageEmitter() {
        @Override
        public void emit(RunEvent event) {
        }

        @Override
        public void close() {
        }
    };

    /** Whether the run is a pipeline partition's job or one of its steps. */
    enum RunKind {
        /** The job instance of one partition ({@code jobType} JOB). */
        JOB,
        /** One step of it ({@code jobType} TASK), whose parent is the job run. */
        STEP,
        /**
         * A backfill ({@code jobType} DAG): the parent of the partition job runs it starts; its
         * partition is the range {@code FROM..TO}.
         */
        BACKFILL
    }

    /**
     * One state change of a job or step run.
     *
     * @param type the state
     * @param run the run's id (a UUID)
     * @param kind job or step
     * @param job the job name: the pipeline, or {@code pipeline.step} for a step
     * @param parentRun for a step, the job run; for a job started by a backfill, the backfill run; else null
     * @param parentJob the parent's job name; else null
     * @param partition the partition the run loads
     * @param nominalStart the start of the partition's nominal interval, or null for a snapshot
     * @param nominalEnd its end (exclusive), or null
     * @param at when the state changed
     * @param inputs datasets read
     * @param outputs datasets written
     * @param sql for a transform step, its SELECT; else null
     * @param specHash SHA-256 of the spec and contract files the run ran with
     * @param error for FAIL, the one-paragraph reason; else null
     * @param attempt Sluice's run id of the attempt (sluice.run), which its restarts share; each
     *     execution is its own OpenLineage run ({@code run})
     */
    record RunEvent(RunEventType type, RunId run, RunKind kind, String job, @Nullable RunId parentRun,
            @Nullable String parentJob, Partition partition, @Nullable Instant nominalStart, @Nullable Instant nominalEnd,
            Instant at, List<LineageDataset> inputs, List<LineageDataset> outputs, @Nullable String sql, String specHash,
            @Nullable String error, RunId attempt) {

        public RunEvent {
            inputs = List.copyOf(inputs);
            outputs = List.copyOf(outputs);
        }
    }

    /**
     * The emitter {@code spec} configures (OpenLineage client; nothing for transport none).
     *
     * @param version Sluice's version, reported in the processing_engine facet
     */
    static LineageEmitter of(LineageSpec spec, String version) {
        return OpenLineageEmitter.of(spec, version, Store.NONE);
    }

    /**
     * The emitter {@code spec} configures, also handing every event to {@code store} (on the
     * thread that emits it, before it is queued, so the store is complete whatever the transport
     * does; also for transport none).
     */
    static LineageEmitter of(LineageSpec spec, String version, Store store) {
        return OpenLineageEmitter.of(spec, version, store);
    }

    /**
     * Where Sluice keeps the events it emits (its lineage store). Called on the thread that emits
     * the event; an exception is counted and logged like a transport failure (the event is then
     * not sent).
     */
    @FunctionalInterface
    interface Store {
        /** Keeps nothing. */
        Store NONE = (event, json) -> { };

        /**
         * @param event the event as Sluice built it
         * @param openLineageJson the same event as sent: OpenLineage JSON
         */
        void store(RunEvent event, String openLineageJson);
    }

    /** Queues {@code event} for emission; never throws, never blocks beyond the queue bound. */
    void emit(RunEvent event);

    /**
     * What an emitter did with the events given to it so far. Every event ends as exactly one of
     * sent, dropped or failed; until then it is queued (or in the sender's hands, in none of them).
     *
     * @param queued events waiting in the queue now
     * @param sent events the transport accepted
     * @param dropped events refused because the queue was full or the emitter closed
     * @param failed events whose storing or sending failed
     */
    record Stats(long queued, long sent, long dropped, long failed) {

        /** Nothing emitted. */
        public static final Stats NONE = new Stats(0, 0, 0, 0);

        /** The sum of this and {@code other}, field by field. */
        public Stats plus(Stats other) {
            return new Stats(queued + other.queued, sent + other.sent, dropped + other.dropped, failed + other.failed);
        }
    }

    /** What this emitter did so far; safe from any thread. An emitter that records nothing: {@link Stats#NONE}. */
    default Stats stats() {
        return Stats.NONE;
    }

    /** Emits what is queued (waiting at most the configured drain time) and stops. */
    @Override
    void close();
}
