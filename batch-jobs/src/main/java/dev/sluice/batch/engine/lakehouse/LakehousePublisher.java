package dev.sluice.batch.engine.lakehouse;

import dev.sluice.batch.engine.control.PartitionVersions;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.FaultPoints;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
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

    /** Publishes {@code version} of {@code partition} (the table's partition) as {@code run}, then prunes. */
    void publish(TableSpec table, Partition partition, int version, RunId run) {
        Table t = IcebergTables.load(catalog, table);
        PartitionBranches.publish(t, partition, PartitionBranches.name(partition, version), Map.of("sluice.partition", partition.key(),
                "sluice.version", Integer.toString(version), "sluice.run_id", run.toString()));
        FaultPoints.reach("lakehouse-published:" + table.stepName()); // main holds the files; the control plane does not know yet
        new PartitionVersions(dsl).publish(table.table(), partition, version, run);
        PartitionBranches.prune(t, partition, version - spec.keepVersions() + 1);
    }
}
