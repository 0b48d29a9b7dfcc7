package dev.sluice.config.design;

import dev.sluice.config.Severity;

/**
 * One broken design rule of a pipeline spec.
 *
 * @param ruleId the rule, e.g. {@code idempotency.write_mode} (README, "Design rules")
 * @param severity ERROR blocks {@code run}, {@code scheduler} and {@code backfill}; WARN is printed
 *     ({@code --strict} makes it an error)
 * @param file the spec or contract file
 * @param keyPath where in it, e.g. {@code layers.silver[1].write}
 * @param message what is wrong and what to do
 */
public record DesignFinding(String ruleId, Severity severity, String file, String keyPath, String message) {

    /** {@code file: keyPath: [SEVERITY rule] message}. */
    public String describe() {
        return file + ": " + keyPath + ": [" + severity.name() + " " + ruleId + "] " + message;
    }
}
