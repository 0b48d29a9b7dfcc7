package dev.sluice.config;

import dev.sluice.core.DatasetRef;
import java.util.List;

/**
 * How the live windows of a hot path are reconciled with the batch truth ({@code hot_path.reconcile}):
 * after each batch load of partition P, the tumbling windows of {@code window} starting inside P are
 * rolled up per {@code keys} and compared with the published partition P of {@code against}, the
 * same keys rolled up the same way. Counts must be equal; each average (weighted by the count)
 * equal within {@code relativeTolerance}. The result is recorded as a quality result of the live
 * table for P (check {@code reconcile_<against table>}). Immutable.
 *
 * @param window a tumbling window table of this hot path whose size divides the partition
 * @param against a partitioned Gold table of this pipeline (the batch mart)
 * @param keys the columns compared on, in both tables (the window's {@code group_by})
 * @param count a {@code count} measure of the window and a column of {@code against}
 * @param averages {@code avg} measures of the window, columns of {@code against} of the same name
 * @param relativeTolerance |live − batch| ≤ tolerance × max(1, |batch|) for averages (default 1e-9)
 * @param severity {@code warn} (default: recorded, the load goes on) or {@code error} (the run fails
 *     after its tables are published, so the difference is not missed)
 */
public record ReconcileSpec(DatasetRef window, DatasetRef against, List<String> keys, String count, List<String> averages,
        double relativeTolerance, Severity severity) {

    public ReconcileSpec {
        keys = List.copyOf(keys);
        averages = List.copyOf(averages);
    }

    /** The id of the recorded check: {@code reconcile_<against table>}. */
    public String checkId() {
        return "reconcile_" + against.table();
    }
}
