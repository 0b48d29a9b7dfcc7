package dev.sluice.batch.job;

import dev.sluice.core.RunId;
import java.util.Objects;

/**
 * The run that started a partition run, e.g. a backfill: the partition run's parent in lineage.
 *
 * @param run the parent's OpenLineage run id
 * @param job the parent's job name, e.g. {@code flights.backfill}
 */
public record ParentRun(RunId run, String job) {
    public ParentRun {
        Objects.requireNonNull(run, "run");
        Objects.requireNonNull(job, "job");
    }
}
