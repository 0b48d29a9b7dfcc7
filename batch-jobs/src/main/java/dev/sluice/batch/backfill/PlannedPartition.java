package dev.sluice.batch.backfill;

import dev.sluice.core.Partition;

/**
 * One partition of a backfill plan.
 *
 * @param partition the partition
 * @param action what the backfill does with it
 * @param reason why, in words (e.g. "attempt 0 FAILED at gate.silver.flights")
 */
public record PlannedPartition(Partition partition, Action action, String reason) {
}
