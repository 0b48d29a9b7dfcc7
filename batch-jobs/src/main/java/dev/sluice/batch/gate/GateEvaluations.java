package dev.sluice.batch.gate;

import dev.sluice.core.Partition;
import dev.sluice.quality.GateResult;

/**
 * How the gate steps of partition jobs get their evaluation: each alone ({@link #ALONE}), or
 * gathered across the partitions of a backfill and judged in one pass ({@link GateBarrier}).
 * Implementations are thread-safe.
 */
public interface GateEvaluations {

    /** Every gate evaluates its own partition when its step runs. */
    GateEvaluations ALONE = (step, gate, request) -> step.evaluate(request);

    /**
     * The evaluation of {@code request} by {@code step}, the gate step named {@code gate}; called
     * outside any transaction.
     *
     * @throws RuntimeException what the evaluation threw ({@link dev.sluice.quality.InvalidCheckException},
     *     a read failure); the step fails with it
     */
    GateResult evaluate(GateEvaluator step, String gate, GateStep.Request request);

    /** The job of {@code partition} has ended (or never started): it will reach no further gate. */
    default void ended(Partition partition) {
    }
}
