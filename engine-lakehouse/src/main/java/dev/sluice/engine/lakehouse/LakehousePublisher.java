package dev.sluice.engine.lakehouse;

import dev.sluice.control.version.PartitionVersions;
import dev.sluice.control.version.StaleVersionException;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.FaultPoints;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.exceptions.ValidationException;
import org.jooq.DSLContext;

/**
 * Publishes a lakehouse Silver/Gold partition version: its branch's files become main's
 * ({@link PartitionBranches#publish}; the Iceberg commit first, so a crash before the control plane
 * records it is repaired by publishing again, which finds main already holding the files), then
 * {@code sluice.published_partition}, then the branches of versions older than the spec's
 * {@code versions.keep} newest are removed (their files go when a purge expires the snapshots that
 * held them). Thread-safe.
 */
final class LakehousePublisher {

    private final Catalog catalog;
    private final DSLContext dsl;
    private final PipelineSpec spec;

    LakehousePublisher(Catalog catalog, DSLContext dsl, PipelineSpec spec) {
        this.catalog = catalog;
        this.dsl = dsl;
        this.spec = spec;
    }

    /**
     * Publishes {@code version} of {@code partition} (the table's partition) as {@code run}, then
     * prunes. A {@code merge-on-key} version is published only while the version it was built on
     * still is: checked before the Iceberg commit, by the commit itself (no change to the partition
     * on main since the version's branch was made from it), and again as the control plane records
     * it ({@link PartitionVersions#publishOnBase}).
     *
     * @throws dev.sluice.control.version.StaleVersionException when another merge-on-key version
     *     was published since this one was built, or when the version's branch was pruned meanwhile
     *     (by another run's publication while this one waited)
     */
    void publish(TableSpec table, Partition partition, int version, RunId run) {
        PartitionVersions versions = new PartitionVersions(dsl);
        Table t;
        if (table.mergeOnKey()) {
            if (versions.wasPublished(table.table(), partition, version)) {
                return; // published once (superseded or rolled back since): a restarted gate step publishes nothing again
            }
            versions.refuseStale(table.table(), partition, version, run);
            FaultPoints.reach("lakehouse-publishing:" + table.stepName()); // checked; the Iceberg commit not yet made
            // a rollback's Iceberg commit and record, or another publication's, come wholly before or after this one's (another's
            // commit between the check and this lock is refused by the commit's validation)
            versions.lockPublished(table.table(), partition);
            try {
                t = commit(table, partition, version, run, Map.of(), true);
            } catch (ValidationException changed) {
                throw new StaleVersionException(table.table() + " partition " + partition + ": version " + version + " (run " + run
                        + ") was built on main's files of its branch's start, and another version of the partition was committed to"
                        + " main since; it is not published. The gate step's retry (or a plain run) builds the next version on the"
                        + " published one (when the run that committed it was killed before the control plane recorded it, restart that"
                        + " run first).", changed);
            }
        } else {
            versions.lockPublished(table.table(), partition);
            if (pruned(table, partition, version)) {
                throw PartitionVersions.prunedMeanwhile(table.table(), partition, version, run, spec.keepVersions());
            }
            t = commit(table, partition, version, run, Map.of(), false);
        }
        FaultPoints.reach("lakehouse-published:" + table.stepName()); // main holds the files; the control plane does not know yet
        if (table.mergeOnKey()) {
            versions.publishOnBase(table.table(), partition, version, run);
        } else {
            versions.publish(table.table(), partition, version, run);
        }
        PartitionBranches.prune(t, partition, version - spec.keepVersions() + 1);
    }

    /**
     * Whether {@code version}'s branch was removed ({@link dev.sluice.engine.LayerEngine#pruned}):
     * looked up only when a version {@code versions.keep} newer was written (a publication removes
     * the branches that many below the version it publishes), so a usual publication or gate asks
     * the control plane alone.
     */
    boolean pruned(TableSpec table, Partition partition, int version) {
        PartitionVersions.Written newest = new PartitionVersions(dsl).newest(table.table(), partition);
        return newest != null && newest.version() >= version + spec.keepVersions()
                && !PartitionBranches.kept(IcebergTables.load(catalog, table), partition).contains(version);
    }

    /**
     * Publishes a kept version again ({@code sluice rollback}): the same commit as {@link #publish},
     * its snapshot summary naming the rollback too (from, who, why: {@link InterruptedRollbacks}),
     * then the control plane records the publication and the rollback; no branch is pruned. A kill
     * between the two is repaired by the next command that reads the partition
     * ({@link InterruptedRollbacks#complete}), from the commit's summary.
     */
    void restore(TableSpec table, Partition partition, PartitionVersions.Move move, String who, String why) {
        PartitionVersions versions = new PartitionVersions(dsl);
        RunId run = versions.runOf(table.table(), partition, move.to()).orElseGet(RunId::newId);
        commit(table, partition, move.to(), run, Map.of(InterruptedRollbacks.FROM_PROPERTY, Integer.toString(move.from()),
                InterruptedRollbacks.BY_PROPERTY, who, InterruptedRollbacks.REASON_PROPERTY, why), false);
        FaultPoints.reach("lakehouse-rolled-back:" + table.stepName()); // main holds the target's files; the control plane does not know yet
        versions.recordRollback(table.table(), partition, move.from(), move.to(), run, who, why);
    }

    /** Makes version {@code version}'s branch files the partition's on main, the snapshot summary naming it; returns the table. */
    private Table commit(TableSpec table, Partition partition, int version, RunId run, Map<String, String> extra, boolean sinceBranchBase) {
        Table t = IcebergTables.load(catalog, table);
        Map<String, String> summary = new java.util.HashMap<>(extra);
        summary.put("sluice.partition", partition.key());
        summary.put("sluice.version", Integer.toString(version));
        summary.put("sluice.run_id", run.toString());
        PartitionBranches.publish(t, partition, PartitionBranches.name(partition, version), summary, sinceBranchBase);
        return t;
    }
}
