package dev.sluice.batch.backfill;

import dev.sluice.control.backfill.Action;

import dev.sluice.core.Partition;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One partition of a backfill plan.
 *
 * @param partition the partition
 * @param action what the backfill does with it
 * @param reason why, in words (e.g. "attempt 0 FAILED at gate.silver.flights")
 * @param tables the tables it runs (step names, in order), or null for every table of the pipeline
 */
public record PlannedPartition(Partition partition, Action action, String reason, java.util.@Nullable List<String> tables) {

    public PlannedPartition {
        tables = tables == null ? null : List.copyOf(tables);
    }

    /** A partition that runs every table. */
    public PlannedPartition(Partition partition, Action action, String reason) {
        this(partition, action, reason, null);
    }
}
