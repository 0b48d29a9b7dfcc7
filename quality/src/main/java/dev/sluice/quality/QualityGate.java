package dev.sluice.quality;

import dev.sluice.core.DatasetRef;
import dev.sluice.core.Partition;

/**
 * Evaluates a dataset partition's declared checks. Implementations return failures as values;
 * only the job step turns a failed ERROR check into a step failure. Implementations are
 * thread-safe.
 */
public interface QualityGate {

    /** Evaluates the checks declared for {@code dataset} at {@code boundary} on {@code partition}. */
    GateResult evaluate(DatasetRef dataset, Partition partition, Boundary boundary);
}
