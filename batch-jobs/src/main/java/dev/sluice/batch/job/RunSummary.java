package dev.sluice.batch.job;

import dev.sluice.control.run.RunStatus;
import dev.sluice.control.run.StopCause;

import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The outcome of one run of a pipeline partition.
 *
 * <p>Headline counts concern the partitioned data (the Silver tables fed by partitioned Bronze
 * tables and the partitioned Gold tables); reference snapshots appear only in {@link #steps()}.
 * For them {@code bronzeRows = silverRows + duplicatesCollapsed + quarantined} holds, and so does
 * {@code rowsRead = bronzeRows} when every file was new.
 *
 * @param pipeline the pipeline
 * @param partition the partition
 * @param attempt the attempt (0 for a plain run; {@code --rerun} opens the next)
 * @param runId the run id of the attempt (kept across restarts of a failed attempt)
 * @param restarted true when this resumed a failed attempt
 * @param rowsRead rows read from landed files by this run
 * @param bronzeRows rows of the partition's current Bronze load
 * @param silverRows rows written to Silver
 * @param duplicatesCollapsed Σ(dup_count − 1) over Silver
 * @param quarantined rows sent to quarantine
 * @param goldRows rows written to the Gold partitions of this partition (a rollup's rewrite of its month is in its step, not here)
 * @param steps each step, in job order
 * @param elapsedMs wall time of this execution, in milliseconds
 * @param status COMPLETED, FAILED, or STOPPED (a timeout, {@code sluice cancel} or a shutdown
 *     stopped it; a restart resumes it from the stopped step)
 * @param stopCause why a STOPPED run was stopped; null for any other status
 * @param failure for a failed or stopped run, one paragraph saying which step failed and why; else null
 * @param warnings things a person should know although the run went on (an empty landed file)
 */
public record RunSummary(String pipeline, Partition partition, int attempt, RunId runId, RunStatus status,
        boolean restarted, long rowsRead, long bronzeRows, long silverRows, long duplicatesCollapsed,
        long quarantined, long goldRows, List<StepSummary> steps, long elapsedMs, @Nullable StopCause stopCause,
        @Nullable String failure, List<String> warnings) {

    public RunSummary {
        steps = List.copyOf(steps);
        warnings = List.copyOf(warnings);
    }

    /** This summary with more warnings. */
    public RunSummary withWarnings(List<String> moreWarnings) {
        List<String> w = new ArrayList<>(warnings);
        w.addAll(moreWarnings);
        return new RunSummary(pipeline, partition, attempt, runId, status, restarted, rowsRead, bronzeRows, silverRows,
                duplicatesCollapsed, quarantined, goldRows, steps, elapsedMs, stopCause, failure, w);
    }

    /** This summary as STOPPED by {@code cause}, with {@code newFailure} saying so and more warnings. */
    public RunSummary stopped(StopCause cause, String newFailure, List<String> moreWarnings) {
        List<String> w = new ArrayList<>(warnings);
        w.addAll(moreWarnings);
        return new RunSummary(pipeline, partition, attempt, runId, RunStatus.STOPPED, restarted, rowsRead, bronzeRows, silverRows,
                duplicatesCollapsed, quarantined, goldRows, steps, elapsedMs, cause, newFailure, w);
    }

    /** True when the run completed. */
    public boolean completed() {
        return status == RunStatus.COMPLETED;
    }

    /** The first step that failed (a gate's step when an ERROR check blocked it), if any. */
    public Optional<StepSummary> failedStep() {
        return steps.stream().filter(st -> st.status() == StepStatus.FAILED).findFirst();
    }
}
