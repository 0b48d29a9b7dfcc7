package dev.sluice.warehouse.meta;

/**
 * The {@code status} of a row of {@code sluice.quarantine} ({@link QuarantineTable}), stored as its
 * name. Batch rows and stream events share the lifecycle: {@link #OPEN} until a rerun or a
 * reprocess settles them.
 */
public enum QuarantineStatus {
    /** Held: the row or event broke a rule and waits for a fix (a rerun, {@code sluice quarantine reprocess}). */
    OPEN,
    /**
     * A rerun of the partition is replacing its quarantine: the rows the previous version quarantined,
     * until the new version's rows are recorded (then REPROCESSED, SUPERSEDED or deleted as quarantined again).
     */
    PENDING,
    /** A later run or reprocess let it through: it is in Silver now. */
    REPROCESSED,
    /** Its source is no longer part of the partition's input (a newer load replaced the file): kept for the record. */
    SUPERSEDED
}
