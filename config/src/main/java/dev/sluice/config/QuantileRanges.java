package dev.sluice.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * {@code quantile_ranges} of {@link Expectation#EXPECT_COLUMN_QUANTILE_VALUES_TO_BE_BETWEEN}, as GE
 * gives it: {@code {quantiles: [0.05, 0.5, 0.95], value_ranges: [[0, 10], [null, 50], [80, null]]}};
 * each quantile's value must lie in its range, both sides inclusive, a null side open.
 *
 * @param quantiles fractions in [0, 1], in the order given
 * @param ranges one per quantile, same order
 */
public record QuantileRanges(List<Double> quantiles, List<Range> ranges) {

    /** One quantile's allowed values; a null side is open. */
    public record Range(@Nullable Double min, @Nullable Double max) {
        /** True when {@code v} is within the range, both sides inclusive. */
        public boolean contains(double v) {
            return (min == null || v >= min) && (max == null || v <= max);
        }

        @Override
        public String toString() {
            return "[" + (min == null ? "-∞" : min) + ", " + (max == null ? "∞" : max) + "]";
        }
    }

    public QuantileRanges {
        quantiles = List.copyOf(quantiles);
        ranges = List.copyOf(ranges);
    }

    /**
     * Reads the parameter value (a map of {@code quantiles} and {@code value_ranges}, as the spec
     * reader or a GE definition gives it).
     *
     * @throws IllegalArgumentException naming what is wrong: a key missing, a quantile outside
     *     [0, 1], a range that is not two numbers or nulls, a min above its max, lists of unequal length
     */
    public static QuantileRanges parse(@Nullable Object value) {
        if (!(value instanceof Map<?, ?> m)) {
            throw new IllegalArgumentException("quantile_ranges needs quantiles and value_ranges, e.g. {quantiles: [0.5], value_ranges: [[0, 10]]}");
        }
        if (!(m.get("quantiles") instanceof List<?> qs) || !(m.get("value_ranges") instanceof List<?> rs)) {
            throw new IllegalArgumentException("quantile_ranges needs both quantiles (a list) and value_ranges (a list of [min, max])");
        }
        if (qs.isEmpty()) {
            throw new IllegalArgumentException("quantile_ranges needs at least one quantile");
        }
        if (qs.size() != rs.size()) {
            throw new IllegalArgumentException("quantile_ranges has " + qs.size() + " quantile(s) but " + rs.size() + " value range(s)");
        }
        List<Double> quantiles = new ArrayList<>();
        for (Object q : qs) {
            Double d = number(q, "quantile");
            if (d == null || d < 0 || d > 1) {
                throw new IllegalArgumentException("quantile " + q + " is not a fraction in [0, 1]");
            }
            quantiles.add(d);
        }
        List<Range> ranges = new ArrayList<>();
        for (Object r : rs) {
            if (!(r instanceof List<?> pair) || pair.size() != 2) {
                throw new IllegalArgumentException("value range " + r + " is not [min, max] (null for an open side)");
            }
            Double min = number(pair.get(0), "value range min");
            Double max = number(pair.get(1), "value range max");
            if (min != null && max != null && min > max) {
                throw new IllegalArgumentException("value range " + r + " has its min above its max");
            }
            ranges.add(new Range(min, max));
        }
        return new QuantileRanges(quantiles, ranges);
    }

    private static @Nullable Double number(@Nullable Object v, String what) {
        if (v == null) {
            return null;
        }
        try {
            // BigDecimal: no NaN, no Infinity, no Java suffixes (1d, 1f); and within a double's range
            double d = new java.math.BigDecimal(v.toString().strip()).doubleValue();
            if (Double.isFinite(d)) {
                return d;
            }
        } catch (NumberFormatException e) {
            // named below
        }
        throw new IllegalArgumentException(what + " " + v + " is not a finite number");
    }
}
