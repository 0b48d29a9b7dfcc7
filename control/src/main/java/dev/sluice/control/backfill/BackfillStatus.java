package dev.sluice.control.backfill;

import dev.sluice.control.run.RunStatus;

/**
 * The {@code status} of a backfill in {@code sluice.backfill}, stored as its name: RUNNING while an
 * invocation runs (or its process died), then how the invocation ended.
 */
public enum BackfillStatus {
    /** An invocation is running, or its process was killed (the status page then shows KILLED). */
    RUNNING,
    /** Every planned partition is done. */
    COMPLETED,
    /** A partition failed; invoking the same backfill again continues it. */
    FAILED,
    /** Stopped (a cancel or a shutdown); invoking the same backfill again continues it. */
    STOPPED;

    /** The backfill status an invocation that ended with {@code status} records (STARTED and ABANDONED are not ends: FAILED). */
    public static BackfillStatus of(RunStatus status) {
        return switch (status) {
            case COMPLETED -> COMPLETED;
            case STOPPED -> STOPPED;
            case STARTED, FAILED, ABANDONED -> FAILED;
        };
    }
}
