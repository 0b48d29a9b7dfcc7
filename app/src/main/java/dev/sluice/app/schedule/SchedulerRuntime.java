package dev.sluice.app.schedule;

import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.config.PipelineSpec;
import java.util.function.Function;

/**
 * What a fire needs, kept in the Quartz scheduler's context (not persisted): the runner on the
 * warehouse, the spec loader (each fire reads the spec file again, so an edited spec takes effect
 * at the next fire) and the missed-partition record. Thread-safe.
 *
 * @param runner runs partitions
 * @param specs loads a pipeline's spec by name
 * @param missed records partitions skipped on purpose
 */
record SchedulerRuntime(PipelineRunner runner, Function<String, PipelineSpec> specs, MissedPartitions missed) {

    /** The key of the runtime in the scheduler context. */
    static final String KEY = "sluice.runtime";

    PipelineSpec spec(String pipeline) {
        return specs.apply(pipeline);
    }
}
