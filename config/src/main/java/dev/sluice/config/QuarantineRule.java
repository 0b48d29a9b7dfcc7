package dev.sluice.config;

import org.jspecify.annotations.Nullable;

/**
 * A rule that sends a Bronze row to quarantine instead of Silver.
 *
 * @param id stable rule id, recorded with each quarantined row
 * @param when an SQL boolean expression over the Bronze columns; true quarantines the row (NULL
 *     does not: declare an explicit {@code IS NULL} rule for nulls)
 * @param reason the human explanation recorded with each quarantined row
 * @param maxShare the largest fraction of the partition's input rows this rule may quarantine,
 *     judged by the transform gate (a validity check); null when the gate does not judge it
 * @param severity what exceeding {@code maxShare} does
 */
public record QuarantineRule(String id, String when, String reason, @Nullable Double maxShare, Severity severity) {

    /** A rule whose share is not judged. */
    public QuarantineRule(String id, String when, String reason) {
        this(id, when, reason, null, Severity.ERROR);
    }
}
