package dev.sluice.batch.job;

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
 * @param status STARTED, COMPLETED or FAILED
 * @param specHash SHA-256 of the spec and contracts of the latest execution
 * @param startedAt when the attempt first started
 * @param endedAt when its latest execution ended, or null
 */
public record RunRecord(RunId runId, String pipeline, String partitionKey, int attempt, String status,
        String specHash, OffsetDateTime startedAt, @Nullable OffsetDateTime endedAt) {
}
