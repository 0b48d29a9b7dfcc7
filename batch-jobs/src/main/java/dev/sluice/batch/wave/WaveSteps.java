package dev.sluice.batch.wave;

import dev.sluice.engine.LayerEngine;
import dev.sluice.engine.StagedWrite;
import dev.sluice.engine.TransformResult;
import dev.sluice.batch.gate.GateEvaluator;
import dev.sluice.batch.gate.GateStep;
import dev.sluice.config.TableSpec;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import dev.sluice.quality.GateResult;
import org.jspecify.annotations.Nullable;

/**
 * How the steps of a partition job that a backfill wave can share are carried out: each alone
 * ({@link #ALONE}), or gathered across the wave's partitions ({@link WaveBarrier}): a gate judges
 * them in one pass, on an engine that writes waves ({@link LayerEngine#stagesWaves}) a table is
 * written for all of them by one job, and a rollup partition (a month) is rebuilt once for the
 * wave's members in it, by the latest ({@link Deferred}). Implementations are thread-safe.
 */
public interface WaveSteps {

    /** Every gate evaluates its own partition and every step writes its own partition when it runs. */
    WaveSteps ALONE = new WaveSteps() {
        @Override
        public GateResult evaluate(GateEvaluator step, String gate, GateStep.Request request) {
            return step.evaluate(request);
        }

        @Override
        public @Nullable StagedWrite stage(LayerEngine engine, TableSpec table, Partition partition, RunId run) {
            return null;
        }
    };

    /**
     * The evaluation of {@code request} by {@code step}, the gate step named {@code gate}; called
     * outside any transaction.
     *
     * @throws RuntimeException what the evaluation threw ({@link dev.sluice.quality.InvalidCheckException},
     *     a read failure); the step fails with it
     */
    GateResult evaluate(GateEvaluator step, String gate, GateStep.Request request);

    /**
     * The version of {@code table} that the wave's one job wrote for {@code partition}, to be
     * recorded by the partition's step; called as the step starts, outside any transaction.
     *
     * @return null when the step writes its partition itself ({@link LayerEngine#write})
     * @throws RuntimeException what the wave's job threw; the step fails with it
     */
    @Nullable StagedWrite stage(LayerEngine engine, TableSpec table, Partition partition, RunId run);

    /**
     * A rollup partition's step that writes nothing: {@code writer}, a later member of the same
     * wave, rebuilds {@code rollup} from every published partition of it once the others have
     * published theirs ({@link WaveBarrier}). The step completes without recording a version
     * (the tasklet returns on it); {@link #record} is never called.
     *
     * @param rollup the rollup partition (e.g. the month) this step would have rebuilt
     * @param writer the wave member whose step rebuilds it
     */
    record Deferred(Partition rollup, Partition writer) implements StagedWrite {
        /** @throws IllegalStateException always: a deferred step has no write to record */
        @Override
        public TransformResult record() {
            throw new IllegalStateException(rollup + " is rebuilt by the run of partition " + writer + ", not recorded by this step");
        }
    }

    /** The job of {@code partition} has ended (or never started): it will reach no further step of the wave. */
    default void ended(Partition partition) {
    }
}
