package dev.sluice.config;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * What a pipeline's consumers need ({@code requirements:} in the spec), from which
 * {@code sluice advise} recommends a mode. Immutable.
 *
 * @param latency the end-to-end latency target (event or source row to queryable number), or null
 *     when not declared
 * @param peakEventsPerSecond the peak event rate (events/s), or null
 * @param peakRowsPerDay the peak daily volume (rows/day), or null
 * @param liveNumbers whether live numbers (seconds old) are needed
 * @param history whether warehouse-grade history is needed (versioned partitions, backfill, audit)
 * @param reporting the reporting cadence ({@code none}, {@code hourly}, {@code daily}, {@code weekly})
 */
public record RequirementsSpec(@Nullable Duration latency, @Nullable Long peakEventsPerSecond, @Nullable Long peakRowsPerDay,
        boolean liveNumbers, boolean history, String reporting) {
}
