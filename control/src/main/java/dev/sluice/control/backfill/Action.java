package dev.sluice.control.backfill;

/** What a backfill does with one partition of its range. */
public enum Action {
    /** Never run: its first attempt. */
    RUN,
    /** Its latest attempt FAILED: restart it from the failed step. */
    RESTART,
    /** COMPLETED, and {@code --rerun} asked for it again: the next attempt. */
    RERUN,
    /** Begun by this backfill before it stopped: continue it (a restart, or nothing if it completed meanwhile). */
    RESUME,
    /** Nothing to do: COMPLETED before (without {@code --rerun}) or by this backfill already. */
    SKIP,
    /** No landed files for it: it cannot run. */
    MISSING;

    /** True when the partition runs. */
    public boolean runs() {
        return this == RUN || this == RESTART || this == RERUN || this == RESUME;
    }
}
