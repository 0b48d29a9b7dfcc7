package dev.sluice.batch.job;

import org.jspecify.annotations.Nullable;

/**
 * How to run a partition. Only {@code rerun} affects identity; the rest is recorded.
 *
 * @param rerun open the next attempt of a COMPLETED partition
 * @param requester who asked (user name, scheduler), or null
 * @param traceId a caller's correlation id, or null
 */
public record RunOptions(boolean rerun, @Nullable String requester, @Nullable String traceId) {

    /** A plain run: attempt 0, or the restart of a failed attempt. */
    public static RunOptions plain() {
        return new RunOptions(false, System.getProperty("user.name"), null);
    }

    /** This, with {@code rerun} set. */
    public RunOptions withRerun(boolean value) {
        return new RunOptions(value, requester, traceId);
    }
}
