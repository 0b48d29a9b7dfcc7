package dev.sluice.batch.backfill;

import dev.sluice.control.backfill.Action;

import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import java.time.LocalDate;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What a backfill will do: every partition of the range with its action, and the steps each
 * partition runs, in order. Immutable.
 *
 * @param pipeline the pipeline
 * @param from the first partition
 * @param to the last partition (inclusive)
 * @param backfillId the backfill's id: new, or that of the unfinished backfill of the same range it continues
 * @param resumed true when it continues an unfinished backfill
 * @param rerun whether COMPLETED partitions run again (an unfinished backfill keeps its own setting)
 * @param partitions each partition of the range, in order
 * @param steps the step names each partition's job runs, in order (a partition that names its
 *     tables runs those tables' steps)
 * @param changed the dataset a changed backfill was planned from, or null for a plain backfill
 * @param outside downstream datasets lineage knows that no table of the pipeline builds (another
 *     tool's), which the backfill cannot re-run: their owners re-run them; empty for a plain backfill
 */
public record BackfillPlan(String pipeline, LocalDate from, LocalDate to, RunId backfillId, boolean resumed, boolean rerun,
        List<PlannedPartition> partitions, List<String> steps, dev.sluice.core.@Nullable DatasetRef changed,
        List<String> outside) {

    public BackfillPlan {
        partitions = List.copyOf(partitions);
        steps = List.copyOf(steps);
        outside = List.copyOf(outside);
    }

    /** A plain backfill's plan. */
    public BackfillPlan(String pipeline, LocalDate from, LocalDate to, RunId backfillId, boolean resumed, boolean rerun,
            List<PlannedPartition> partitions, List<String> steps) {
        this(pipeline, from, to, backfillId, resumed, rerun, partitions, steps, null, List.of());
    }

    /** The partitions that run, in order. */
    public List<Partition> toRun() {
        return partitions.stream().filter(p -> p.action().runs()).map(PlannedPartition::partition).toList();
    }

    /** The range as one partition key, {@code FROM..TO}: the backfill run's partition in lineage. */
    public Partition range() {
        return new Partition(from + ".." + to);
    }

    /** How many partitions have {@code action}. */
    public long count(Action action) {
        return partitions.stream().filter(p -> p.action() == action).count();
    }
}
