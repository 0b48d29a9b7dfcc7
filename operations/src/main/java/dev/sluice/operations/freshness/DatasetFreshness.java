package dev.sluice.operations.freshness;

import dev.sluice.config.DatasetPolicy;
import dev.sluice.core.DatasetRef;
import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One dataset's freshness at a moment.
 *
 * @param dataset the dataset
 * @param policy its owner, update interval and SLA
 * @param lastPartition the newest partition published, or null
 * @param lastPublishedAt the newest publication (of any partition: a backfill of old partitions is an update too), or null
 * @param tslu time since last update, or null when never published
 * @param state the state
 */
public record DatasetFreshness(DatasetRef dataset, DatasetPolicy policy, @Nullable String lastPartition,
        @Nullable Instant lastPublishedAt, @Nullable Duration tslu, FreshnessState state) {
}
