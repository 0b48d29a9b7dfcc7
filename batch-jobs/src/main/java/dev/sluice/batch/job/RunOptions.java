package dev.sluice.batch.job;

import org.jspecify.annotations.Nullable;

/**
 * How to run a partition. Only {@code rerun} affects identity; the rest is recorded.
 *
 * @param rerun open the next attempt of a COMPLETED partition, or give up a FAILED attempt and
 *     open the next instead of restarting it
 * @param recoverStale restart an attempt marked running although its process is not known to be
 *     gone (it ran on another host): the caller vouches that it is
 * @param requester who asked (user name, scheduler), or null
 * @param traceId a caller's correlation id, or null
 */
public record RunOptions(boolean rerun, @Nullable String requester, @Nullable String traceId, boolean recoverStale) {

    /** A plain run: attempt 0, or the restart of a failed attempt. */
    public static RunOptions plain() {
        return new RunOptions(false, System.getProperty("user.name"), null, false);
    }

    /** This, with {@code rerun} set. */
    public RunOptions withRerun(boolean value) {
        return new RunOptions(value, requester, traceId, recoverStale);
    }
}
