package dev.sluice.quality;

import org.jspecify.annotations.Nullable;

/**
 * The outcome of one check on one partition: a value, never an exception.
 *
 * @param checkId the check's id from the spec
 * @param status PASSED, WARNED (a failed WARN check), FAILED (a failed ERROR check) or INSUFFICIENT_HISTORY
 * @param metric the measured value (a fraction, a count, a mean), or null when none applies
 * @param message what was measured against what was expected
 */
public record CheckResult(String checkId, String status, @Nullable Double metric, String message) {
}
