package dev.sluice.quality.internal.deequ;

import dev.sluice.config.CheckSpec;
import dev.sluice.config.Expectation;
import dev.sluice.quality.InvalidCheckException;
import org.jspecify.annotations.Nullable;

/**
 * {@code min_value} / {@code max_value} (inclusive unless {@code strict_min} / {@code strict_max})
 * of a check. As in GE: min above max raises; neither given raises for a column-values check and
 * means "any value" (vacuously true) for an aggregate or the row count.
 */
record Bounds(@Nullable Object min, @Nullable Object max, boolean strictMin, boolean strictMax) {

    static Bounds of(CheckSpec spec) {
        Object min = spec.param("min_value").orElse(null);
        Object max = spec.param("max_value").orElse(null);
        if (min == null && max == null && spec.expectation().kind() == Expectation.Kind.MAP) {
            throw new InvalidCheckException(spec.id() + ": min_value and max_value cannot both be None");
        }
        Expectation e = spec.expectation();
        boolean ordered = e.kind() == Expectation.Kind.MAP || e == Expectation.EXPECT_COLUMN_MIN_TO_BE_BETWEEN
                || e == Expectation.EXPECT_COLUMN_MAX_TO_BE_BETWEEN;
        for (Object bound : new Object[] {min, max}) {
            if (!ordered && bound != null && !SparkSql.isNumber(bound.toString())) {
                // an aggregate, a count or a metric is a number: a bound that is not one cannot be judged
                throw new InvalidCheckException(spec.id() + ": " + bound + " is not a number (min_value, max_value)");
            }
        }
        if (min != null && max != null && SparkSql.isNumber(min.toString()) && SparkSql.isNumber(max.toString())
                && Double.parseDouble(min.toString()) > Double.parseDouble(max.toString())) {
            throw new InvalidCheckException(spec.id() + ": min_value cannot be greater than max_value");
        }
        return new Bounds(min, max, spec.flag("strict_min"), spec.flag("strict_max"));
    }

    /** True when a number is within the bounds (numeric bounds only). */
    boolean contains(double v) {
        return contains(v, 0);
    }

    /**
     * True when a number is within the bounds, a value within {@code slack} (relative to the bound)
     * of an inclusive bound counting as on it.
     */
    boolean contains(double v, double slack) {
        if (min != null) {
            double m = Double.parseDouble(min.toString());
            double x = strictMin ? v : v + slack * Math.abs(m);
            if (strictMin ? x <= m : x < m) {
                return false;
            }
        }
        if (max != null) {
            double m = Double.parseDouble(max.toString());
            return strictMax ? v < m : v - slack * Math.abs(m) <= m;
        }
        return true;
    }

    @Override
    public String toString() {
        return (min == null ? "(-∞" : (strictMin ? "(" : "[") + min) + ", " + (max == null ? "∞)" : max + (strictMax ? ")" : "]"));
    }
}
