package dev.sluice.quality;

import dev.sluice.config.CheckFamily;
import dev.sluice.config.Severity;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The outcome of one check on one partition: a value, never an exception.
 *
 * @param checkId the check's id from the spec
 * @param expectation the expectation name, e.g. {@code expect_column_values_to_be_unique}
 * @param family the check's family
 * @param severity the declared severity
 * @param status the outcome
 * @param metric the number the check judged (map checks: the fraction of non-null values that
 *     pass, in [0, 1]; aggregates: the aggregate; row count; freshness: the lag in seconds;
 *     anomaly: the metric), or null when there was nothing to measure (an empty partition)
 * @param observedValue GE's {@code observed_value}: the aggregate, the row count, or for schema
 *     checks the column list; null for map checks
 * @param threshold what was required, as text (e.g. {@code >= 0.999 of values in [-120, 1440]})
 * @param message one sentence: measured against expected
 * @param elementCount rows judged (map checks: non-null values; {@code not_be_null}: all rows)
 * @param unexpectedCount values that did not pass
 * @param unexpectedValues up to {@value #SAMPLE} of the values that did not pass
 * @param unexpectedRowIds their row ids when the source has a row-id column, same order (null for a
 *     row whose id is NULL); else empty
 */
public record CheckResult(String checkId, String expectation, CheckFamily family, Severity severity, CheckStatus status,
        @Nullable Double metric, @Nullable Object observedValue, String threshold, String message,
        long elementCount, long unexpectedCount, List<Object> unexpectedValues, List<@Nullable Long> unexpectedRowIds) {

    /** The most unexpected values a result carries. */
    public static final int SAMPLE = 20;

    public CheckResult {
        unexpectedValues = Collections.unmodifiableList(new ArrayList<>(unexpectedValues));
        unexpectedRowIds = Collections.unmodifiableList(new ArrayList<>(unexpectedRowIds));
    }

    /** True unless the check did not hold ({@link CheckStatus#WARNED} or {@link CheckStatus#FAILED}). */
    public boolean held() {
        return status != CheckStatus.WARNED && status != CheckStatus.FAILED;
    }
}
