package dev.sluice.config;

/**
 * A rule that sends a Bronze row to quarantine instead of Silver.
 *
 * @param id stable rule id, recorded with each quarantined row
 * @param when an SQL boolean expression over the Bronze columns; true quarantines the row (NULL
 *     does not: declare an explicit {@code IS NULL} rule for nulls)
 * @param reason the human explanation recorded with each quarantined row
 */
public record QuarantineRule(String id, String when, String reason) {
}
