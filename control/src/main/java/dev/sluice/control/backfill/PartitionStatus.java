package dev.sluice.control.backfill;

import dev.sluice.control.run.RunStatus;

/**
 * The outcome of one partition of a range run or a backfill (stored by name in
 * {@code sluice.backfill_partition}). A range run and a backfill label a partition alike.
 */
public enum PartitionStatus {
    /** Its run completed in this invocation. */
    COMPLETED,
    /** Its run failed, or it could not start for a reason other than those below. */
    FAILED,
    /** Its run was stopped, or it was not started because the process or the backfill was stopping. */
    STOPPED,
    /** Nothing to do: already COMPLETED (before this invocation, or by this backfill), or not to be built. */
    SKIPPED,
    /** No landed files for the partition. */
    MISSING,
    /** Bad input refused before any write (a file its contract refuses, an unreadable file). */
    INVALID,
    /** Refused: the partition is running elsewhere. */
    REFUSED,
    /** Recorded in {@code sluice.backfill_partition} while the partition runs; never an outcome. */
    RUNNING;

    /** The outcome of a run that ended with {@code status} (STARTED and ABANDONED are not ends: FAILED). */
    public static PartitionStatus of(RunStatus status) {
        return switch (status) {
            case COMPLETED -> COMPLETED;
            case STOPPED -> STOPPED;
            case STARTED, FAILED, ABANDONED -> FAILED;
        };
    }

    /** True for COMPLETED and SKIPPED: nothing is left to do for the partition. */
    public boolean done() {
        return this == COMPLETED || this == SKIPPED;
    }
}
