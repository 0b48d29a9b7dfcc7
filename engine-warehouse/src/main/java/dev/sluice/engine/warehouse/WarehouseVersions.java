package dev.sluice.engine.warehouse;

import dev.sluice.config.TableSpec;
import dev.sluice.control.version.PartitionVersions;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.FaultPoints;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import dev.sluice.core.SluiceException;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

/**
 * The versions a warehouse-engine table keeps in {@code schema.table_versions}, read beside the
 * control plane's record of them ({@link PartitionVersions}): which are kept, whether one was
 * pruned while it waited, and a rollback to a kept one. Statements run on the caller's
 * {@link DSLContext} (its transaction). Thread-safe as the context is.
 */
final class WarehouseVersions {

    private static final Field<String> PARTITION = DSL.field(DSL.name("_partition"), String.class);
    private static final Field<Integer> VERSION = DSL.field(DSL.name("_version"), Integer.class);

    private final DSLContext dsl;
    private final PartitionVersions versions;

    WarehouseVersions(DSLContext dsl) {
        this.dsl = dsl;
        this.versions = new PartitionVersions(dsl);
    }

    /**
     * Whether a version was pruned while unpublished: it was recorded with rows, and none is kept
     * ({@code PartitionPublisher} prunes by number, {@code versions.keep} below the version it
     * publishes, whether or not a run still waits to publish the pruned one).
     */
    boolean pruned(DatasetRef dataset, Partition partition, int version) {
        Long written = versions.writtenRows(dataset, partition, version);
        return written != null && written > 0 && !dsl.fetchExists(DSL.selectOne().from(LayerTables.table(LayerTables.versions(dataset)))
                .where(PARTITION.eq(partition.key()), VERSION.eq(version)));
    }

    /** The versions of a partition still kept, oldest first. */
    List<Integer> kept(DatasetRef dataset, Partition partition) {
        return dsl.selectDistinct(VERSION).from(LayerTables.table(LayerTables.versions(dataset)))
                .where(PARTITION.eq(partition.key())).orderBy(VERSION).fetch(VERSION);
    }

    /**
     * Publishes a kept earlier version again and records who, when and why.
     *
     * @param toVersion the version to restore; null for the newest kept one before the published one that was published itself
     * @return the version now published
     * @throws SluiceException when the partition has no published version, or the wanted version
     *     is not kept (pruned or never written), or is a refused {@code merge-on-key} version
     */
    int rollback(TableSpec table, Partition partition, @Nullable Integer toVersion, String who, String why) {
        DatasetRef dataset = table.table();
        // a run's publication meanwhile waits for the rollback's record (a merge-on-key one is then refused), so the kept versions,
        // the move and the logged from_version are those of now
        versions.lockPublished(dataset, partition);
        PartitionVersions.Move move = versions.rollbackMove(table, partition, kept(dataset, partition), toVersion);
        FaultPoints.reach("rolling-back:" + table.stepName());
        String run = dsl.select(DSL.field(DSL.name("_run_id"), String.class))
                .from(LayerTables.table(LayerTables.versions(dataset)))
                .where(PARTITION.eq(partition.key()), VERSION.eq(move.to()))
                .limit(1).fetchOptional(0, String.class).orElse(RunId.newId().toString());
        versions.recordRollback(dataset, partition, move.from(), move.to(), RunId.parse(run), who, why);
        return move.to();
    }
}
