package dev.sluice.batch.gate;

import dev.sluice.core.Partition;
import dev.sluice.quality.GateResult;
import java.util.List;
import java.util.Map;

/** What evaluates a gate's checks: one partition, or many in one pass. {@link GateStep} is the one. */
public interface GateEvaluator {

    /** The declared checks' results on one partition. */
    GateResult evaluate(GateStep.Request request);

    /** The declared checks' results on many partitions, keyed by the partition judged. */
    Map<Partition, GateResult> evaluateAll(List<GateStep.Request> requests);
}
