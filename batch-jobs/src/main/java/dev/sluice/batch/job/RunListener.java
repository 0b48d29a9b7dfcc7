package dev.sluice.batch.job;

import dev.sluice.config.PipelineSpec;

/**
 * Told of every attempt's end by {@link PipelineRunner}, after the run is recorded: the hook through
 * which modules outside the job engine (alerts in {@code operations}) follow runs without the engine
 * depending on them.
 *
 * <p>Implementations are found with {@link java.util.ServiceLoader} (a
 * {@code META-INF/services/dev.sluice.batch.job.RunListener} file on the classpath), once per
 * runner. They are called on the run's thread and must be thread-safe; an exception thrown by one is
 * logged and never changes the run's outcome.
 */
public interface RunListener {

    /**
     * {@code summary} was recorded for {@code spec}: COMPLETED, FAILED or STOPPED (with its
     * {@link RunSummary#stopCause() cause}).
     */
    void finished(PipelineSpec spec, RunSummary summary);
}
