package dev.sluice.batch.backfill;

import dev.sluice.batch.job.RunSummary;
import dev.sluice.core.Partition;
import org.jspecify.annotations.Nullable;

/**
 * The outcome of one partition of a range run or backfill.
 *
 * @param partition the partition
 * @param status COMPLETED, FAILED, SKIPPED (nothing to do), MISSING (no landed files), INVALID (bad
 *     input refused before any write, e.g. a file its contract refuses) or REFUSED (running elsewhere)
 * @param summary the run's summary, or null when it did not run
 * @param message why it did not run or failed, or empty
 */
public record PartitionOutcome(Partition partition, String status, @Nullable RunSummary summary, String message) {
}
