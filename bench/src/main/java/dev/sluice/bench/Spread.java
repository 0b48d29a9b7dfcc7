package dev.sluice.bench;

import java.util.List;

/**
 * The median and the range of a measure's repeats (the median of an even count is the mean of the
 * middle two). Immutable.
 */
record Spread(double median, double min, double max) {

    /** The spread of {@code values}; all NaN when there are none. */
    static Spread of(List<Double> values) {
        double[] xs = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        if (xs.length == 0) {
            return new Spread(Double.NaN, Double.NaN, Double.NaN);
        }
        int n = xs.length;
        return new Spread(n % 2 == 1 ? xs[n / 2] : (xs[n / 2 - 1] + xs[n / 2]) / 2, xs[0], xs[n - 1]);
    }
}
