package dev.sluice.batch.backfill;

import dev.sluice.control.backfill.PartitionStatus;

import dev.sluice.batch.job.RunSummary;
import dev.sluice.core.Partition;
import org.jspecify.annotations.Nullable;

/**
 * The outcome of one partition of a range run or backfill.
 *
 * @param partition the partition
 * @param status its outcome (never RUNNING)
 * @param summary the run's summary, or null when it did not run
 * @param message why it did not run or failed, or empty
 */
public record PartitionOutcome(Partition partition, PartitionStatus status, @Nullable RunSummary summary, String message) {
}
