package dev.sluice.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One declared quality check of a dataset: {@code layers.<layer>[i].checks[j]} in the spec. The
 * boundary follows from the layer (Bronze: source, Silver: transform, Gold: sink).
 *
 * @param id unique within the table, e.g. {@code delay_plausible}
 * @param expectation what is checked
 * @param severity what a failure does
 * @param mostly where {@link Expectation#takesMostly()}, the fraction of (non-null) values, or of
 *     rows for the compound uniqueness, that must pass, in (0, 1]; null means 1 (every value)
 * @param column the column judged, or null for a table check
 * @param params the expectation's other parameters as given, e.g. {@code min_value → -120},
 *     {@code value_set → [a, b]} (a scalar is a String, Number or Boolean; a list a List of them)
 * @param noData what a {@code NO_DATA} outcome does, or null for the expectation's default
 *     ({@link #noDataBlocks()})
 */
public record CheckSpec(String id, Expectation expectation, Severity severity, @Nullable Double mostly,
        @Nullable String column, Map<String, Object> params, @Nullable NoDataPolicy noData) {

    /** A check with the expectation's default {@code no_data} policy. */
    public CheckSpec(String id, Expectation expectation, Severity severity, @Nullable Double mostly,
            @Nullable String column, Map<String, Object> params) {
        this(id, expectation, severity, mostly, column, params, null);
    }

    public CheckSpec {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(expectation, "expectation");
        Objects.requireNonNull(severity, "severity");
        params = Map.copyOf(params);
    }

    /** The fraction that must pass (1 when {@code mostly} is absent). */
    public double mostlyOrAll() {
        return mostly == null ? 1.0 : mostly;
    }

    /**
     * Whether a {@code NO_DATA} outcome of this check blocks the partition (with severity
     * {@code error}; a {@code warn} check never blocks). Without {@code no_data:} in the spec, the
     * default is Great Expectations' verdict on no values: a column-value or row check (and the compound
     * uniqueness, the distinct values being in a set, and the values being in the partition) is vacuously true there, so it allows;
     * an aggregate, metric or anomaly check is
     * false there, so it blocks.
     */
    public boolean noDataBlocks() {
        if (noData != null) {
            return noData == NoDataPolicy.BLOCK;
        }
        return expectation.kind() != Expectation.Kind.MAP && expectation.kind() != Expectation.Kind.ROW
                && expectation.kind() != Expectation.Kind.INTERVAL
                && expectation != Expectation.EXPECT_COMPOUND_COLUMNS_TO_BE_UNIQUE
                && expectation != Expectation.EXPECT_COLUMN_DISTINCT_VALUES_TO_BE_IN_SET;
    }

    /** A scalar parameter, or empty. */
    public Optional<Object> param(String key) {
        return Optional.ofNullable(params.get(key));
    }

    /** A boolean parameter (false when absent). */
    public boolean flag(String key) {
        Object v = params.get(key);
        return v instanceof Boolean b ? b : v != null && v.toString().equals("true");
    }

    /**
     * A list parameter (empty when absent), unmodifiable; its elements as given, a null among them
     * kept (e.g. {@code value_set: [null]}, which GE accepts: NULLs are judged by {@code null_values}).
     */
    public List<@Nullable Object> list(String key) {
        Object v = params.get(key);
        return v instanceof List<?> l ? java.util.Collections.unmodifiableList(new java.util.ArrayList<@Nullable Object>(l)) : List.of();
    }

    /** {@code max_lag} of a freshness check. */
    public Optional<Duration> maxLag() {
        return param("max_lag").map(v -> Duration.parse(v.toString()));
    }
}
