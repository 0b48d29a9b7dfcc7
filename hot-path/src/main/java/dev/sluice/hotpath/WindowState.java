package dev.sluice.hotpath;

import dev.sluice.config.WindowSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The running state of one tumbling or sliding window, in memory: its event count and, per measure
 * of {@code window.measures()} (in that order), its value (sum, min, max; null while no event had a
 * value) or, for avg, the non-null count and the sum. count and sum add up, min/max take the extreme
 * (integers widened to long, floats to double), avg is sum / n as SQL's AVG. Not thread-safe: one
 * batch's fold uses it on one thread.
 */
final class WindowState {

    private final WindowSpec window;
    private long count;
    private final @Nullable Object[] values;
    private final long[] n;
    private final double[] sum;

    /** An empty window of {@code window}: no events. */
    WindowState(WindowSpec window) {
        this.window = window;
        this.values = new Object[window.measures().size()];
        this.n = new long[window.measures().size()];
        this.sum = new double[window.measures().size()];
    }

    /** Counts one event, given by its values by column name. */
    void add(Map<String, @Nullable Object> event) {
        count++;
        int i = 0;
        for (WindowSpec.Measure m : window.measures().values()) {
            Object v = m.column() == null ? null : widen(event.get(m.column()));
            switch (m.function()) {
                case "count" -> { }
                case "avg" -> {
                    if (v != null) {
                        n[i]++;
                        sum[i] += ((Number) v).doubleValue();
                    }
                }
                default -> values[i] = fold(m.function(), values[i], v);
            }
            i++;
        }
    }

    /**
     * The values to store, in the order of the measure columns and then the helper columns
     * ({@link WindowTable#helpers}): count as long, avg as double (null without values), sum/min/max
     * as folded; then per avg measure its count (long) and sum (double).
     */
    List<@Nullable Object> measureValues() {
        List<@Nullable Object> out = new ArrayList<>();
        List<@Nullable Object> helpers = new ArrayList<>();
        int i = 0;
        for (WindowSpec.Measure m : window.measures().values()) {
            switch (m.function()) {
                case "count" -> out.add(count);
                case "avg" -> {
                    out.add(n[i] == 0 ? null : sum[i] / n[i]);
                    helpers.add(n[i]);
                    helpers.add(sum[i]);
                }
                default -> out.add(values[i]);
            }
            i++;
        }
        out.addAll(helpers);
        return out;
    }

    private static @Nullable Object widen(@Nullable Object v) {
        if (v instanceof Integer x) {
            return x.longValue();
        }
        if (v instanceof Float x) {
            return x.doubleValue();
        }
        return v;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static @Nullable Object fold(String function, @Nullable Object acc, @Nullable Object v) {
        if (v == null) {
            return acc;
        }
        if (acc == null) {
            return v;
        }
        return switch (function) {
            case "sum" -> acc instanceof Long a && v instanceof Long b ? (Object) (a + b)
                    : (Object) (((Number) acc).doubleValue() + ((Number) v).doubleValue());
            case "min" -> ((Comparable) v).compareTo(acc) < 0 ? v : acc;
            default -> ((Comparable) v).compareTo(acc) > 0 ? v : acc;
        };
    }
}
