package dev.sluice.control.run;

import dev.sluice.core.RunId;
import java.time.OffsetDateTime;
import org.jspecify.annotations.Nullable;

/**
 * A row of {@code sluice.run}: one attempt of a job instance.
 *
 * @param runId the attempt's run id
 * @param pipeline the pipeline
 * @param partitionKey the partition key
 * @param attempt 0, 1, …
 * @param status its status
 * @param specHash SHA-256 of the spec and contracts of the latest execution
 * @param startedAt when the attempt first started
 * @param endedAt when its latest execution ended, or null
 * @param host the host of the process running (or that last ran) the attempt, or null
 * @param pid that process's id, or null
 * @param traceId the caller's correlation id (a backfill's id for the partitions it runs), or null
 */
public record RunRecord(RunId runId, String pipeline, String partitionKey, int attempt, RunStatus status,
        String specHash, OffsetDateTime startedAt, @Nullable OffsetDateTime endedAt, @Nullable String host,
        @Nullable Long pid, @Nullable String traceId) {

    /**
     * True when the attempt is marked STARTED but its process is gone: it ran on this host and no
     * process with its pid is alive (a killed run). A run on another host is never judged dead.
     */
    public boolean isOrphaned(String thisHost) {
        return status == RunStatus.STARTED && processGone(host, pid, thisHost);
    }

    /**
     * True when the process {@code host}/{@code pid} ran on {@code thisHost}, is not this JVM and
     * is no longer alive; false for a null host or pid and for another host (never judged).
     */
    public static boolean processGone(@Nullable String host, @Nullable Long pid, String thisHost) {
        return thisHost.equals(host) && pid != null && pid != ProcessHandle.current().pid()
                && ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true);
    }
}
