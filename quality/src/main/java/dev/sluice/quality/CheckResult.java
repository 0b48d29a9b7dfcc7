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
 * @param blocks true for a {@link CheckStatus#NO_DATA} result that stops the partition as a
 *     failure does (an {@code error} check whose {@code no_data} policy is {@code block}); false
 *     for every other result
 */
public record CheckResult(String checkId, String expectation, CheckFamily family, Severity severity, CheckStatus status,
        @Nullable Double metric, @Nullable Object observedValue, String threshold, String message,
        long elementCount, long unexpectedCount, List<Object> unexpectedValues, List<@Nullable Long> unexpectedRowIds,
        boolean blocks) {

    /** A result that does not block unless it is {@link CheckStatus#FAILED}. */
    public CheckResult(String checkId, String expectation, CheckFamily family, Severity severity, CheckStatus status,
            @Nullable Double metric, @Nullable Object observedValue, String threshold, String message,
            long elementCount, long unexpectedCount, List<Object> unexpectedValues, List<@Nullable Long> unexpectedRowIds) {
        this(checkId, expectation, family, severity, status, metric, observedValue, threshold, message, elementCount,
                unexpectedCount, unexpectedValues, unexpectedRowIds, false);
    }

    /** The most unexpected values a result carries. */
    public static final int SAMPLE = 20;

    public CheckResult {
        if (blocks && status != CheckStatus.NO_DATA) {
            throw new IllegalArgumentException(checkId + ": only a NO_DATA result is marked blocking; " + status + " speaks for itself");
        }
        unexpectedValues = Collections.unmodifiableList(new ArrayList<>(unexpectedValues));
        unexpectedRowIds = Collections.unmodifiableList(new ArrayList<>(unexpectedRowIds));
    }

    /**
     * True when the check held: {@link CheckStatus#PASSED}, or {@link CheckStatus#INSUFFICIENT_HISTORY}
     * (judged in line until there is history). {@link CheckStatus#NO_DATA} did not hold: there was
     * nothing to judge.
     */
    public boolean held() {
        return status == CheckStatus.PASSED || status == CheckStatus.INSUFFICIENT_HISTORY;
    }

    /** True when this result stops the partition: {@link CheckStatus#FAILED}, or a blocking {@link CheckStatus#NO_DATA}. */
    public boolean stops() {
        return status == CheckStatus.FAILED || blocks;
    }
}
