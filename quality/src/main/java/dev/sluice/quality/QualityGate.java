package dev.sluice.quality;

import dev.sluice.config.CheckSpec;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.Partition;
import dev.sluice.core.SluiceException;
import dev.sluice.quality.internal.deequ.DeequGate;
import java.util.List;
import java.util.SortedMap;

/**
 * Evaluates a dataset partition's declared checks. A failed check is a value
 * ({@link CheckResult}); only the job step turns a FAILED result into a step failure.
 * Implementations are thread-safe.
 */
public interface QualityGate {

    /**
     * Evaluates {@code checks} on the partition that {@code source} selects.
     *
     * @throws InvalidCheckException when a check cannot be evaluated as declared (e.g. min above
     *     max, a column the data does not have for a map check)
     * @throws SluiceException when the partition cannot be read, or {@code source} is of a kind
     *     this gate does not read (the Deequ gate reads {@link PartitionSource.JdbcQuery} only)
     */
    GateResult evaluate(DatasetRef dataset, Partition partition, Boundary boundary, PartitionSource source,
            List<CheckSpec> checks, MetricHistory history);

    /**
     * Evaluates {@code checks} on every partition of {@code batch} in one pass over their rows
     * (one read, one grouped aggregation, one grouped count per uniqueness check), with exactly
     * the results {@link #evaluate} gives each partition alone; anomaly checks are judged in
     * partition order, each against the stored history plus the batch's earlier accepted values.
     *
     * @return each member's result, in partition order; a result's {@code elapsedMs} is its share
     *     of the batch's wall time
     * @throws InvalidCheckException when a check cannot be evaluated as declared
     * @throws SluiceException when the rows cannot be read, or {@code batch} is of a kind this gate
     *     does not read (the Deequ gate reads {@link PartitionBatch.JdbcQueries} only)
     */
    SortedMap<Partition, GateResult> evaluateAll(DatasetRef dataset, Boundary boundary, PartitionBatch batch,
            List<CheckSpec> checks, PartitionHistory history);

    /**
     * Starts what this gate evaluates on, on a daemon thread, and returns at once: for a run whose
     * first evaluation comes after other work (a backfill's first wave loads Bronze first), so that
     * the start does not wait until then. Evaluations wait for it as before. Once per JVM; a failure
     * is logged as a warning and left to the first evaluation to report. The Deequ gate starts the
     * JVM's SparkSession and runs one small job.
     *
     * @return completes when the start has finished (exceptionally when it failed); no gate needs to
     *     wait for it
     */
    default java.util.concurrent.CompletableFuture<Void> startInBackground() {
        return java.util.concurrent.CompletableFuture.completedFuture(null);
    }

    /**
     * The Deequ gate on the JVM's one SparkSession.
     *
     * @param sparkMaster e.g. {@code local[*]}; the first gate of the JVM creates the session
     */
    static QualityGate deequ(String sparkMaster) {
        return new DeequGate(sparkMaster);
    }
}
