package dev.sluice.config;

import dev.sluice.core.DatasetRef;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * When a pipeline runs by itself ({@code schedule:} in the spec) and which partition a fire loads.
 *
 * @param cron a Quartz cron expression with seconds ({@code sec min hour day-of-month month
 *     day-of-week [year]}, e.g. {@code 0 30 2 * * ?} for 02:30 every day), validated by the scheduler
 * @param zone the time zone the cron expression and the partition's day/hour/month are read in
 * @param lag how many partitions before the one holding the fire's <em>scheduled</em> time the
 *     fire loads (daily, a 02:30 fire with lag 1 loads yesterday, D−1); 0 for per-fire partitions
 * @param after data triggers ({@code after:}): datasets of other pipelines whose publication of a
 *     partition starts the run of the same partition here, when every one of them has it published
 *     and at least one published it after this pipeline last built it; empty for cron only
 * @param poll how often the scheduler looks for such publications ({@code poll}, default 30 s)
 */
public record ScheduleSpec(java.lang.@Nullable String cron, ZoneId zone, int lag,
        List<DatasetRef> after, Duration poll) {
    public ScheduleSpec {
        Objects.requireNonNull(zone, "zone");
        Objects.requireNonNull(poll, "poll");
        after = List.copyOf(after);
        if (lag < 0) {
            throw new IllegalArgumentException("lag must not be negative");
        }
        if (cron == null && after.isEmpty()) {
            throw new IllegalArgumentException("a schedule has a cron expression, data triggers, or both");
        }
    }

    /** A cron-only schedule. */
    public ScheduleSpec(String cron, ZoneId zone, int lag) {
        this(cron, zone, lag, List.of(), Duration.ofSeconds(30));
    }

    /** True when a cron expression fires it. */
    public boolean hasCron() {
        return cron != null;
    }
}
