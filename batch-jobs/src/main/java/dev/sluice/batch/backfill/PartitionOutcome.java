package dev.sluice.batch.backfill;

import dev.sluice.control.backfill.PartitionStatus;

import dev.sluice.batch.job.LandingMissingException;
import dev.sluice.batch.job.PartitionCompletedException;
import dev.sluice.batch.job.RunRefusedException;
import dev.sluice.batch.job.RunSummary;
import dev.sluice.core.Partition;
import dev.sluice.core.SluiceException;
import org.jspecify.annotations.Nullable;

/**
 * The outcome of one partition of a range run or backfill.
 *
 * <p>A range run ({@code sluice run --from --to}) and a backfill label a partition the same way,
 * with the factories here: {@link #ran} for a run that ended, {@link #threw} for one that threw
 * instead, {@link #notStarted} for one not started because something was stopping. Immutable.
 *
 * @param partition the partition
 * @param status its outcome (never RUNNING)
 * @param summary the run's summary, or null when it did not run
 * @param message why it did not run or failed, or empty
 */
public record PartitionOutcome(Partition partition, PartitionStatus status, @Nullable RunSummary summary, String message) {

    /**
     * The outcome of a run that ended with {@code summary}: COMPLETED, FAILED or STOPPED as
     * {@link PartitionStatus#of} labels the run's status, the message the summary's failure (or
     * empty).
     */
    public static PartitionOutcome ran(RunSummary summary) {
        return new PartitionOutcome(summary.partition(), PartitionStatus.of(summary.status()), summary,
                summary.failure() == null ? "" : summary.failure());
    }

    /**
     * The outcome of a partition whose run threw {@code e} instead of ending with a summary, by the
     * type of {@code e}: SKIPPED for a {@link PartitionCompletedException} (the partition was
     * COMPLETED already; message {@code alreadyCompleted}, which says what the caller's user can do),
     * REFUSED for any other {@link RunRefusedException} (running elsewhere), MISSING for a
     * {@link LandingMissingException}, FAILED for any other Sluice exception; the message is
     * {@code e}'s but for SKIPPED. No summary. (A range run labels bad input, a
     * {@link dev.sluice.core.BadInputException}, INVALID before asking this; a backfill does not.)
     *
     * @param alreadyCompleted the message of a SKIPPED outcome, e.g. {@code "already COMPLETED (--rerun re-runs it)"}
     */
    public static PartitionOutcome threw(Partition partition, SluiceException e, String alreadyCompleted) {
        if (e instanceof PartitionCompletedException) {
            return new PartitionOutcome(partition, PartitionStatus.SKIPPED, null, alreadyCompleted);
        }
        PartitionStatus status = e instanceof RunRefusedException ? PartitionStatus.REFUSED
                : e instanceof LandingMissingException ? PartitionStatus.MISSING : PartitionStatus.FAILED;
        return new PartitionOutcome(partition, status, null, e.getMessage());
    }

    /**
     * The outcome of a partition not started because the process, the backfill or an earlier
     * partition was stopping: STOPPED, message {@code "not started: " + why}, no summary.
     */
    public static PartitionOutcome notStarted(Partition partition, String why) {
        return new PartitionOutcome(partition, PartitionStatus.STOPPED, null, "not started: " + why);
    }
}
