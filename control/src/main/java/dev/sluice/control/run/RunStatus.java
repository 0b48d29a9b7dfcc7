package dev.sluice.control.run;

/**
 * The state of one attempt of a job instance, as recorded in {@code sluice.run} (stored by name).
 * Exit codes, alerts and plans branch on it, never on messages.
 */
public enum RunStatus {
    /** Running, or killed while running (see {@link RunRecord#isOrphaned}). */
    STARTED,
    /** Every step completed; the partition's versions are published. */
    COMPLETED,
    /** A step failed; a plain run restarts the attempt from that step. */
    FAILED,
    /** Stopped on request (its {@link StopCause}); a plain run restarts it from the stopped step. */
    STOPPED,
    /** A FAILED or STOPPED attempt given up for the next one ({@code --rerun}). */
    ABANDONED;

    /**
     * The status stored as {@code name}.
     *
     * @throws IllegalArgumentException when {@code name} is none of these
     */
    public static RunStatus of(String name) {
        return valueOf(name);
    }

    /** True for FAILED and STOPPED: the attempt ended without completing and can be restarted. */
    public boolean restartable() {
        return this == FAILED || this == STOPPED;
    }
}
