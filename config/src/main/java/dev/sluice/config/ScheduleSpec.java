package dev.sluice.config;

import java.time.ZoneId;
import java.util.Objects;

/**
 * When a pipeline runs by itself ({@code schedule:} in the spec) and which partition a fire loads.
 *
 * @param cron a Quartz cron expression with seconds ({@code sec min hour day-of-month month
 *     day-of-week [year]}, e.g. {@code 0 30 2 * * ?} for 02:30 every day), validated by the scheduler
 * @param zone the time zone the cron expression and the partition's day/hour/month are read in
 * @param lag how many partitions before the one holding the fire's <em>scheduled</em> time the
 *     fire loads (daily, a 02:30 fire with lag 1 loads yesterday, D−1); 0 for per-fire partitions
 */
public record ScheduleSpec(String cron, ZoneId zone, int lag) {
    public ScheduleSpec {
        Objects.requireNonNull(cron, "cron");
        Objects.requireNonNull(zone, "zone");
        if (lag < 0) {
            throw new IllegalArgumentException("lag must not be negative");
        }
    }
}
