package dev.sluice.engine;

/**
 * What Bronze holds of one load (partition, source file, run id): where a restarted load resumes.
 * Read from the rows themselves, never from a step's execution context: the rows and their
 * positions commit together, so a kill cannot leave them out of step.
 *
 * @param rows rows committed (≥ 0)
 * @param lastPosition the highest {@code _source_pos} committed (0-based row of the file), or -1 when none
 */
public record LoadPosition(long rows, long lastPosition) {

    /** Nothing committed. */
    public static final LoadPosition NONE = new LoadPosition(0, -1);

    /** Rows of the file to pass over before the next one to load: every row up to {@link #lastPosition()}. */
    public long rowsToSkip() {
        return lastPosition + 1;
    }
}
