package dev.sluice.quality;

import dev.sluice.core.Partition;
import java.util.Collections;
import java.util.SortedMap;

/**
 * The accepted earlier values of anomaly checks, keyed by partition, for judging many partitions
 * in one pass: the gate adds the values it accepts in the batch itself to what this returns, so
 * partition D is judged against D−1 even when both are in the batch.
 */
@FunctionalInterface
public interface PartitionHistory {

    /** No history. */
    PartitionHistory NONE = (checkId, before) -> Collections.emptySortedMap();

    /**
     * The accepted values of check {@code checkId} on partitions before {@code before}, as stored
     * before the batch, ordered by partition.
     */
    SortedMap<Partition, Double> accepted(String checkId, Partition before);
}
