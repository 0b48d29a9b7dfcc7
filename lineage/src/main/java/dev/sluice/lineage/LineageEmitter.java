package dev.sluice.lineage;

import dev.sluice.core.DatasetRef;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Records what a run read and wrote. Emission never fails or blocks a job beyond its queue
 * bound; implementations are thread-safe.
 */
public interface LineageEmitter {

    /** An emitter that records nothing (the default until the lineage issue). */
    LineageEmitter NOOP = event -> { };

    /**
     * One state change of a job or step run.
     *
     * @param type the state
     * @param run the run
     * @param parent the parent run (a step's job run), or null
     * @param job the job name (pipeline, or pipeline.step)
     * @param partition the partition the run loads
     * @param at when, UTC
     * @param inputs datasets read
     * @param outputs datasets written
     * @param error for FAIL, the one-paragraph reason; else null
     */
    record RunEvent(RunEventType type, RunId run, @Nullable RunId parent, String job, Partition partition, Instant at,
            List<DatasetRef> inputs, List<DatasetRef> outputs, @Nullable String error) {
    }

    /** Emits {@code event}; never throws. */
    void emit(RunEvent event);
}
