package dev.sluice.batch.backfill;

import dev.sluice.control.run.RunStatus;
import dev.sluice.core.RunId;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a backfill did.
 *
 * @param backfillId the backfill's id (kept when it is continued)
 * @param lineageRun this invocation's OpenLineage run: the parent of the partition runs it started
 * @param status COMPLETED when every partition completed or was skipped; STOPPED when all the others were stopped; else FAILED
 * @param outcomes each partition of the plan, in order
 * @param elapsedMs wall time of this invocation, in milliseconds
 * @param gateBatches one-pass gate evaluations run (a gate of a wave is one)
 * @param gateMsByStep wall time of those evaluations per gate step name (e.g. {@code gate.bronze.flights_raw}),
 *     in job order, in milliseconds
 */
public record BackfillReport(RunId backfillId, RunId lineageRun, RunStatus status, List<PartitionOutcome> outcomes, long elapsedMs,
        long gateBatches, Map<String, Long> gateMsByStep) {

    public BackfillReport {
        outcomes = List.copyOf(outcomes);
        gateMsByStep = Collections.unmodifiableMap(new LinkedHashMap<>(gateMsByStep));
    }

    /**
     * Wall time of the one-pass gate evaluations, in milliseconds: the partitions' other work waits
     * meanwhile, so this is the gates' share of {@code elapsedMs} (recording results is not in it).
     */
    public long gateMs() {
        return gateMsByStep.values().stream().mapToLong(Long::longValue).sum();
    }

    /** True when nothing failed. */
    public boolean completed() {
        return status == RunStatus.COMPLETED;
    }
}
