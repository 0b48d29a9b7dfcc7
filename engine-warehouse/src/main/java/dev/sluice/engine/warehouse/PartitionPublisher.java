package dev.sluice.engine.warehouse;

import dev.sluice.control.version.PartitionVersions;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import dev.sluice.warehouse.meta.PublishedPartitionTable;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.SQLDialect;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * Publishes a written version of one Silver/Gold table partition: makes it the one readers see
 * ({@link PartitionVersions#publish}), gives PostgreSQL's planner fresh statistics of a reference
 * snapshot, and prunes the partition's versions older than the spec's {@code versions.keep}. In
 * the caller's transaction. A table with quality checks is published by its gate step, after the
 * checks held; a table without them right after it is written. Thread-safe.
 */
final class PartitionPublisher {

    private static final Field<Integer> VERSION_COL = DSL.field(DSL.name("_version"), Integer.class);

    private final DSLContext dsl;
    private final PipelineSpec spec;
    private final TableSpec table;

    PartitionPublisher(DSLContext dsl, PipelineSpec spec, TableSpec table) {
        this.dsl = dsl;
        this.spec = spec;
        this.table = table;
    }

    /**
     * Publishes {@code version} of partition {@code out} as {@code run}, then prunes. A
     * {@code merge-on-key} version is published only while the version it was built on still is
     * ({@link PartitionVersions#publishOnBase}).
     *
     * @throws dev.sluice.control.version.StaleVersionException when another merge-on-key version
     *     was published since this one was built, or when the version was pruned meanwhile
     *     ({@link PartitionVersions#pruned})
     */
    void publish(Partition out, int version, RunId run) {
        PartitionVersions versions = new PartitionVersions(dsl);
        boolean once = table.mergeOnKey() && versions.wasPublished(table.table(), out, version); // then publishOnBase does nothing
        if (table.mergeOnKey()) {
            versions.publishOnBase(table.table(), out, version, run);
        } else {
            versions.publish(table.table(), out, version, run);
        }
        // asked after the publication took the partition's row lock: a run that pruned this version meanwhile has committed
        // (read committed, H2 and PostgreSQL), and the exception rolls this publication back
        if (!once && new WarehouseVersions(dsl).pruned(table.table(), out, version)) {
            throw PartitionVersions.prunedMeanwhile(table.table(), out, version, run, spec.keepVersions());
        }
        analyzeSnapshot();
        prune(out, version);
    }

    /**
     * A reference snapshot is joined row by row through its view: give PostgreSQL's planner
     * statistics at once rather than after autovacuum (without them a lookup of 16k rows took 21 s).
     */
    private void analyzeSnapshot() {
        if (!table.partitioned() && dsl.dialect().family() == SQLDialect.POSTGRES) {
            dsl.execute("ANALYZE " + LayerTables.versions(table.table()).qualifiedName());
            dsl.execute("ANALYZE " + PublishedPartitionTable.NAME);
        }
    }

    /** Deletes the partition's versions older than the {@code versions.keep} newest up to {@code version}. */
    private void prune(Partition out, int version) {
        Table<?> target = LayerTables.table(LayerTables.versions(table.table()));
        dsl.deleteFrom(target).where(DSL.field(DSL.name("_partition"), String.class).eq(out.key()),
                VERSION_COL.le(version - spec.keepVersions())).execute();
    }
}
