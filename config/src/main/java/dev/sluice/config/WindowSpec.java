package dev.sluice.config;

import dev.sluice.core.DatasetRef;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A live aggregate of a hot path ({@code hot_path.windows[]}): events grouped by {@code groupBy}
 * into event-time windows, with measures, kept in {@code table}. Immutable.
 *
 * <ul>
 *   <li>{@code tumbling}: fixed windows of {@code size} aligned on the epoch, each event in one;</li>
 *   <li>{@code sliding} (hopping): windows of {@code size} starting every {@code slide}, each event
 *       in size/slide of them;</li>
 *   <li>{@code session}: per group, events closer than {@code gap} to the previous one are one window,
 *       from the first event to the last + gap.</li>
 * </ul>
 * Event times count to the whole second (floor): a session gap compares whole seconds.
 * Definitions after the Dataflow model (Akidau et al., "The Dataflow Model", VLDB 2015, §2.2).
 *
 * @param table where the windows are kept (schema gold)
 * @param kind tumbling, sliding or session
 * @param size the window length (tumbling, sliding); null for session
 * @param slide the hop between window starts (sliding); null otherwise
 * @param gap the inactivity that ends a session (session); null otherwise
 * @param groupBy the contract columns grouping the events
 * @param distinctByContent events with the same content hash count once (exact duplicates under their own ids)
 * @param measures output column → measure, in order
 */
public record WindowSpec(DatasetRef table, Kind kind, @Nullable Duration size, @Nullable Duration slide, @Nullable Duration gap,
        List<String> groupBy, boolean distinctByContent, Map<String, Measure> measures) {

    public WindowSpec {
        groupBy = List.copyOf(groupBy);
        measures = Collections.unmodifiableMap(new LinkedHashMap<>(measures));
    }

    /** The kinds of window. */
    public enum Kind {
        TUMBLING, SLIDING, SESSION
    }

    /**
     * A measure: {@code count}, or {@code sum|avg|min|max(column)}.
     *
     * @param function count, sum, avg, min or max
     * @param column the contract column, or null for count
     */
    public record Measure(String function, @Nullable String column) {
    }
}
