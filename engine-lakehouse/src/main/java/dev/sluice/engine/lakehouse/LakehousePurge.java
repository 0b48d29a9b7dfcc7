package dev.sluice.engine.lakehouse;

import dev.sluice.config.PipelineSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.spark.LakehouseCatalog;
import dev.sluice.spark.SparkSessions;
import dev.sluice.warehouse.Warehouse;
import java.time.Instant;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.spark.sql.SparkSession;

/**
 * {@code sluice purge} on a lakehouse pipeline, the part that lives in the Iceberg tables (the
 * control plane's records are purged by the operations module as for the warehouse engine): the
 * rows of superseded Bronze loads, the table snapshots older than the cutoff (the current one is
 * always kept) and orphan files older than a grace period (files no snapshot references: a write
 * killed before its commit). A superseded Silver/Gold version is its record and its branch
 * ({@link PartitionBranches}): the branch goes, and its files with the next expiry. Snapshots are
 * per table, not per partition: expiring them ends time travel to before the cutoff for every
 * partition, those inside the backfill window too (their current rows stay); the heads of kept
 * versions' branches stay. One instance per purge: a dry run remembers the branches it would have
 * removed, so that its snapshot count is the real run's. Thread-safe.
 */
public final class LakehousePurge {

    private final PipelineSpec spec;
    private final LakehouseCatalog lakehouse;
    /** "table branch" of the branches a dry run would have removed. */
    private final java.util.Set<String> wouldRemove = java.util.concurrent.ConcurrentHashMap.newKeySet();

    public LakehousePurge(PipelineSpec spec, Warehouse warehouse) {
        this.spec = spec;
        this.lakehouse = new LakehouseCatalog(warehouse.jdbcUrl(), warehouse.spec().user(), warehouse.spec().password(),
                spec.engine().location());
    }

    /**
     * Removes (or with {@code dryRun} counts) the rows of one superseded Bronze load: one Spark
     * {@code DELETE}, an Iceberg commit of its own.
     *
     * @return the load's rows
     */
    public long bronzeLoad(TableSpec bronze, String partition, String source, String run, boolean dryRun) {
        if (!catalog().tableExists(LakehouseNames.iceberg(bronze.table()))) {
            return 0;
        }
        String where = LakehouseNames.PARTITION + " = " + LakehouseInput.quote(partition) + " AND _source = " + LakehouseInput.quote(source)
                + " AND _run_id = " + LakehouseInput.quote(run);
        String table = LakehouseNames.spark(bronze.table());
        long rows = spark().sql("SELECT COUNT(*) FROM " + table + " WHERE " + where).first().getLong(0);
        if (rows > 0 && !dryRun) {
            spark().sql("DELETE FROM " + table + " WHERE " + where);
        }
        return rows;
    }

    /**
     * Removes (or with {@code dryRun} counts) the branch of a superseded Silver/Gold version.
     *
     * @return 1 when the version had a branch, else 0
     */
    public long version(TableSpec table, String partition, int version, boolean dryRun) {
        if (!catalog().tableExists(LakehouseNames.iceberg(table.table()))) {
            return 0;
        }
        Table t = catalog().loadTable(LakehouseNames.iceberg(table.table()));
        String branch = PartitionBranches.name(new dev.sluice.core.Partition(partition), version);
        if (!t.refs().containsKey(branch)) {
            return 0;
        }
        if (dryRun) {
            wouldRemove.add(t.name() + " " + branch);
        } else {
            PartitionBranches.removeBranch(t, branch);
        }
        return 1;
    }

    /**
     * Expires (or counts) every table's snapshots committed before {@code cutoff}, never the
     * current one nor a kept version's branch head, and deletes the data files only they
     * referenced ({@link SnapshotExpiry}).
     *
     * @return snapshots expired
     */
    public long expireSnapshots(Instant cutoff, boolean dryRun) {
        long n = 0;
        for (TableSpec t : spec.tables()) {
            if (!catalog().tableExists(LakehouseNames.iceberg(t.table()))) {
                continue;
            }
            Table table = catalog().loadTable(LakehouseNames.iceberg(t.table()));
            Snapshot current = table.currentSnapshot();
            java.util.Set<Long> heads = new java.util.HashSet<>();
            table.refs().forEach((name, ref) -> {
                if (!(dryRun && wouldRemove.contains(table.name() + " " + name))) {
                    heads.add(ref.snapshotId());
                }
            });
            for (Snapshot s : table.snapshots()) {
                if (current != null && !heads.contains(s.snapshotId()) && s.timestampMillis() < cutoff.toEpochMilli()) {
                    n++;
                }
            }
            if (!dryRun && current != null) {
                SnapshotExpiry.expire(spark(), table, LakehouseNames.spark(t.table()), cutoff.toEpochMilli());
            }
        }
        return n;
    }

    /**
     * Deletes (or counts) every table's orphan files last modified before {@code modifiedBefore}
     * (now minus the purge's grace period): files under the table's location that no snapshot,
     * manifest or metadata file of the table references ({@link OrphanFiles}, a plain listing, no
     * Spark job): a write killed before its commit, a compaction's replaced chunk files when it was
     * killed before deleting them. A younger file may belong to a write still in flight and stays.
     *
     * @return files deleted (or that would be)
     */
    public long orphanFiles(Instant modifiedBefore, boolean dryRun) {
        long n = 0;
        for (TableSpec t : spec.tables()) {
            if (catalog().tableExists(LakehouseNames.iceberg(t.table()))) {
                n += OrphanFiles.delete(catalog().loadTable(LakehouseNames.iceberg(t.table())), modifiedBefore, dryRun);
            }
        }
        return n;
    }

    private Catalog catalog() {
        return IcebergTables.catalog(lakehouse);
    }

    private SparkSession spark() {
        return SparkSessions.lakehouse(spec.sparkMaster(), lakehouse);
    }
}
