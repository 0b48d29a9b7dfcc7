package dev.sluice.app.schedule;

import dev.sluice.config.PipelineSpec;
import dev.sluice.config.ScheduleSpec;
import dev.sluice.core.BadInputException;
import dev.sluice.core.Partition;
import dev.sluice.core.PartitionKind;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.TimeZone;
import org.jspecify.annotations.Nullable;
import org.quartz.CronExpression;

/**
 * A pipeline's schedule as times and partitions: the Quartz cron expression read in the schedule's
 * zone, and the partition a fire loads, computed from the fire's <em>scheduled</em> time (never
 * from the clock when it happens to run): the partition of the pipeline's kind holding that time,
 * in the schedule's zone, {@code lag} partitions back. Immutable and thread-safe.
 */
public final class FireSchedule {

    private final PipelineSpec spec;
    private final ScheduleSpec schedule;
    private final String cron;

    /**
     * @throws BadInputException when the spec has no schedule or its cron expression is not valid Quartz
     */
    public FireSchedule(PipelineSpec spec) {
        this.spec = spec;
        if (spec.schedule() == null) {
            throw new BadInputException(spec.file().toString(), -1, "schedule", "pipeline " + spec.name() + " has no schedule");
        }
        this.schedule = spec.schedule();
        this.cron = schedule.cron().trim();
        try {
            CronExpression.validateExpression(cron);
        } catch (ParseException e) {
            throw new BadInputException(spec.file().toString(), -1, "schedule.cron", "'" + cron + "' is not a Quartz cron expression: "
                    + e.getMessage());
        }
    }

    /** The cron expression, in the schedule's zone. */
    CronExpression expression() {
        try {
            CronExpression e = new CronExpression(cron);
            e.setTimeZone(TimeZone.getTimeZone(schedule.zone()));
            return e;
        } catch (ParseException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The cron text. */
    public String cron() {
        return cron;
    }

    /** The zone the cron and the partitions are read in. */
    public ZoneId zone() {
        return schedule.zone();
    }

    /** The partition the fire scheduled at {@code scheduled} loads. */
    public Partition partitionOf(Instant scheduled) {
        PartitionKind kind = spec.partitionKind();
        return kind.shift(kind.containing(scheduled.atZone(schedule.zone())), -schedule.lag());
    }

    /**
     * The partitions the fire scheduled at {@code scheduled} is responsible for, oldest first:
     * its own ({@link #partitionOf}), and those its previous fire skipped when the two fires are at
     * most two periods apart but their partitions are not neighbours: clocks moved (Quartz
     * skips a 02:30 fire that does not exist on a spring-forward night, and a repeated local hour
     * fires once). Empty when the previous fire already loaded this partition (a fire repeated by
     * a clock falling back). A sparser schedule (weekdays only: three days from Friday to Monday)
     * fills nothing: its gaps are intended.
     */
    public List<Partition> partitionsFor(Instant scheduled) {
        Partition own = partitionOf(scheduled);
        PartitionKind kind = spec.partitionKind();
        Instant previous = kind == PartitionKind.PER_FIRE ? null : previous(scheduled);
        if (previous == null || Duration.between(previous, scheduled).compareTo(period(kind).multipliedBy(2)) > 0) {
            return List.of(own);
        }
        Partition last = partitionOf(previous);
        List<Partition> out = new ArrayList<>();
        for (Partition p = kind.shift(last, 1); p.compareTo(own) <= 0 && out.size() < 3; p = kind.shift(p, 1)) {
            out.add(p);
        }
        return out;
    }

    /** The latest fire before {@code t}, looking back at most three periods; null when none. */
    private @Nullable Instant previous(Instant t) {
        Instant from = t.minus(period(spec.partitionKind()).multipliedBy(3));
        Instant last = null;
        for (Instant x = next(from); x != null && x.isBefore(t); x = next(x)) {
            last = x;
        }
        return last;
    }

    /** The nominal length of a partition of {@code kind} (a month counted as 31 days). */
    private static Duration period(PartitionKind kind) {
        return switch (kind) {
            case HOURLY -> Duration.ofHours(1);
            case DAILY -> Duration.ofDays(1);
            case MONTHLY -> Duration.ofDays(31);
            case PER_FIRE -> Duration.ZERO;
        };
    }

    /** The first fire strictly after {@code t}, or null when the schedule has none. */
    public @Nullable Instant next(Instant t) {
        Date d = expression().getTimeAfter(Date.from(t));
        return d == null ? null : d.toInstant();
    }

    /** Every fire in ({@code from}, {@code to}], in order. */
    public List<Instant> firesBetween(Instant from, Instant to) {
        List<Instant> out = new ArrayList<>();
        for (Instant t = next(from); t != null && !t.isAfter(to); t = next(t)) {
            out.add(t);
        }
        return out;
    }
}
