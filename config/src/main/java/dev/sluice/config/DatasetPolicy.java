package dev.sluice.config;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a pipeline promises about one of its datasets ({@code datasets:} in the spec).
 *
 * @param owner who answers for it (a team or person), or null
 * @param updateInterval how often a new partition is expected (ISO-8601, e.g. {@code PT24H})
 * @param freshnessSla the longest time since the last update before the promise is broken; more
 *     than 1.5 × {@code updateInterval} (validated)
 */
public record DatasetPolicy(@Nullable String owner, Duration updateInterval, Duration freshnessSla) {

    /** Time since last update beyond this many intervals is a warning. */
    public static final double WARN_FACTOR = 1.5;

    public DatasetPolicy {
        Objects.requireNonNull(updateInterval, "updateInterval");
        Objects.requireNonNull(freshnessSla, "freshnessSla");
    }

    /** The TSLU beyond which the dataset is late (warn): 1.5 × the update interval. */
    public Duration warnAfter() {
        return Duration.ofMillis(Math.round(updateInterval.toMillis() * WARN_FACTOR));
    }
}
