package dev.sluice.config.design;

import dev.sluice.config.Severity;
import org.jspecify.annotations.Nullable;

/**
 * One broken design rule of a pipeline spec.
 *
 * @param ruleId the rule, e.g. {@code idempotency.write_mode} (docs/design.md, "Design rules")
 * @param severity ERROR blocks {@code run}, {@code scheduler} and {@code backfill}; WARN is printed
 *     ({@code --strict} makes it an error)
 * @param file the spec or contract file
 * @param keyPath where in it, e.g. {@code layers.silver[1].write}
 * @param message what is wrong and what to do
 * @param exemption why the spec exempts itself from this rule ({@code design_exemptions}), or null:
 *     an exempted finding is printed, never blocks
 */
public record DesignFinding(String ruleId, Severity severity, String file, String keyPath, String message,
        @Nullable String exemption) {

    /** A finding without exemption. */
    public DesignFinding(String ruleId, Severity severity, String file, String keyPath, String message) {
        this(ruleId, severity, file, keyPath, message, null);
    }

    /** {@code file: keyPath: [SEVERITY rule] message}, or {@code [EXEMPT rule] message (exempted: reason)}. */
    public String describe() {
        return file + ": " + keyPath + ": [" + (exemption == null ? severity.name() : "EXEMPT") + " " + ruleId + "] " + message
                + (exemption == null ? "" : " (exempted: " + exemption + ")");
    }
}
