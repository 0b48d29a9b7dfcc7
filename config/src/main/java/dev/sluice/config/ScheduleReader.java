package dev.sluice.config;

import dev.sluice.core.DatasetRef;
import dev.sluice.core.PartitionKind;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Reads {@code schedule:}, when a pipeline runs by itself ({@link ScheduleSpec}):
 * <pre>
 * schedule:
 *   cron: "0 30 2 * * ?"          # a Quartz cron expression, 6 or 7 fields, seconds first;
 *                                 #   required unless after is given
 *   time_zone: UTC                # default UTC: the zone of the cron and of the partitions' days
 *   lag: 1                        # default 1 (0 for per_fire partitioning, which allows only 0); at least 0:
 *                                 #   partitions before the one holding the fire's time
 *   after: [silver.other]         # optional data triggers: datasets (schema.table) of other pipelines;
 *                                 #   given, at least one
 *   poll: PT30S                   # default PT30S: how often the scheduler looks for their publications
 * </pre>
 * Problems are added to the cursor's list with their key paths; nothing is thrown for bad content.
 * That {@code after} names no table of this pipeline is judged with the layers
 * ({@link PipelineSpecLoader}). Stateless.
 */
final class ScheduleReader {

    private static final ZoneId DEFAULT_ZONE = ZoneOffset.UTC;
    private static final Duration DEFAULT_POLL = Duration.ofSeconds(30);

    private ScheduleReader() {
    }

    /**
     * The schedule, or null when the spec has none (or one with neither a cron expression nor a
     * valid data trigger, after a problem).
     *
     * @param c the spec's root
     * @param kind the pipeline's partitioning, which sets the default lag
     */
    static @Nullable ScheduleSpec read(YamlCursor c, PartitionKind kind) {
        return c.map("schedule", false).map(s -> {
            s.allowOnly(Set.of("cron", "time_zone", "lag", "after", "poll"));
            List<DatasetRef> after = new ArrayList<>();
            for (YamlCursor a : s.list("after", false)) {
                a.scalar().ifPresent(name -> {
                    try {
                        after.add(DatasetRef.parse(name));
                    } catch (RuntimeException e) {
                        a.problemHere(name, "a data trigger names a dataset (schema.table) another pipeline publishes");
                    }
                });
            }
            String cron = s.text("cron", after.isEmpty() && !s.has("after")).orElse(null);
            if (cron != null) {
                int fields = cron.trim().split("\\s+").length;
                if (fields < 6 || fields > 7) {
                    s.problem("cron", cron, "a Quartz cron expression has 6 or 7 fields, seconds first (e.g. '0 30 2 * * ?' for 02:30 daily)");
                }
            }
            ZoneId zone = s.text("time_zone", false).map(z -> {
                try {
                    return ZoneId.of(z);
                } catch (DateTimeException e) {
                    s.problem("time_zone", z, "not a time zone id (e.g. UTC, Europe/Berlin)");
                    return DEFAULT_ZONE;
                }
            }).orElse(DEFAULT_ZONE);
            int dflt = kind == PartitionKind.PER_FIRE ? 0 : 1;
            int lag = s.integer("lag", dflt, 0).orElse(dflt);
            if (kind == PartitionKind.PER_FIRE && lag != 0) {
                s.problem("lag", Integer.toString(lag), "a per-fire partition is the fire itself: lag must be 0");
            }
            Duration poll = s.duration("poll", DEFAULT_POLL);
            if (s.has("after") && after.isEmpty()) {
                s.problem("after", "[]", "name at least one dataset, or leave after out");
            }
            return cron == null && after.isEmpty() ? null : new ScheduleSpec(cron, zone, lag, after, poll);
        }).orElse(null);
    }
}
