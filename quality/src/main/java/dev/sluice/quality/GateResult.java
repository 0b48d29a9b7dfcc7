package dev.sluice.quality;

import dev.sluice.core.DatasetRef;
import dev.sluice.core.Partition;
import java.util.List;

/**
 * The checks of one gate on one partition.
 *
 * @param dataset the dataset checked
 * @param partition the partition checked
 * @param boundary where the gate sits
 * @param checks each check's result, in spec order
 * @param elapsedMs wall time of the evaluation, in milliseconds (Spark read and Deequ run included)
 */
public record GateResult(DatasetRef dataset, Partition partition, Boundary boundary, List<CheckResult> checks,
        long elapsedMs) {
    public GateResult {
        checks = List.copyOf(checks);
    }

    /** True when no ERROR check failed or had no data where it blocks ({@link CheckResult#stops()}): the partition may go on. */
    public boolean passed() {
        return checks.stream().noneMatch(CheckResult::stops);
    }
}
