package dev.sluice.config;

import java.util.Locale;
import java.util.Optional;

/**
 * The Deequ metrics a check can name ({@code metric:} of {@code expect_metric_to_be_between} and
 * {@code expect_metric_to_not_be_anomalous}), each computed by the Deequ analyzer of the same name
 * (https://github.com/awslabs/deequ, {@code com.amazon.deequ.analyzers}) over the partition's rows.
 * What each one needs: {@code column} (one column), {@code column_list} (one or more columns),
 * {@code other_column} (a second column), {@code quantile} (in [0, 1]).
 */
public enum Metric {
    /** Rows ({@code Size}). */
    ROW_COUNT(Needs.NOTHING),
    /** Non-null rows over rows ({@code Completeness}). */
    COMPLETENESS(Needs.COLUMN),
    MEAN(Needs.COLUMN),
    /** The population standard deviation ({@code StandardDeviation}; GE's stdev expectation uses the sample one). */
    STDDEV(Needs.COLUMN),
    SUM(Needs.COLUMN),
    MINIMUM(Needs.COLUMN),
    MAXIMUM(Needs.COLUMN),
    /** The shortest string, in characters ({@code MinLength}). */
    MIN_LENGTH(Needs.COLUMN),
    MAX_LENGTH(Needs.COLUMN),
    /** Values occurring once over the rows with a value ({@code Uniqueness}). */
    UNIQUENESS(Needs.COLUMNS),
    /** Distinct values over the rows with a value ({@code Distinctness}). */
    DISTINCTNESS(Needs.COLUMNS),
    /** Values occurring once over distinct values ({@code UniqueValueRatio}). */
    UNIQUE_VALUE_RATIO(Needs.COLUMNS),
    /** Distinct values ({@code CountDistinct}). */
    COUNT_DISTINCT(Needs.COLUMNS),
    /** HyperLogLog++ estimate of the distinct values ({@code ApproxCountDistinct}). */
    APPROX_COUNT_DISTINCT(Needs.COLUMN),
    /** {@code ApproxQuantile} (Greenwald–Khanna, relative error 0.01). */
    APPROX_QUANTILE(Needs.QUANTILE),
    /** {@code ExactQuantile} (Spark's {@code percentile}: interpolated). */
    EXACT_QUANTILE(Needs.QUANTILE),
    /** Pearson correlation of {@code column} and {@code other_column} ({@code Correlation}). */
    CORRELATION(Needs.TWO_COLUMNS),
    /** Entropy of the value distribution, natural logarithm ({@code Entropy}). */
    ENTROPY(Needs.COLUMN);

    /** What a metric needs besides its name. */
    public enum Needs {
        NOTHING, COLUMN, COLUMNS, TWO_COLUMNS, QUANTILE
    }

    private final Needs needs;

    Metric(Needs needs) {
        this.needs = needs;
    }

    public Needs needs() {
        return needs;
    }

    /** The name in a spec, e.g. {@code unique_value_ratio}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a name; empty when unknown. */
    public static Optional<Metric> parse(String text) {
        for (Metric m : values()) {
            if (m.id().equals(text)) {
                return Optional.of(m);
            }
        }
        return Optional.empty();
    }

    /** Every name, comma-separated, for messages. */
    public static String names() {
        StringBuilder b = new StringBuilder();
        for (Metric m : values()) {
            b.append(b.length() == 0 ? "" : ", ").append(m.id());
        }
        return b.toString();
    }
}
