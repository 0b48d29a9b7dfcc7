package dev.sluice.engine.lakehouse;

import dev.sluice.core.Partition;
import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.spark.actions.SparkActions;
import org.apache.spark.sql.SparkSession;
import org.jspecify.annotations.Nullable;

/**
 * The maintenance of a lakehouse Bronze partition once its load is complete: its chunks' data files
 * rewritten into one (Iceberg's bin-pack rewrite, a Spark job) when there are two or more, every
 * snapshot older than the current one expired, then the chunk files the rewrite replaced deleted.
 * Iceberg's expiry deletes only the files an expired snapshot removed; the rewrite's own snapshot,
 * which removed the chunks, is the one kept, so they stayed on disk, referenced by no snapshot (9 a
 * day of 16,565 rows in chunks of 2,000). They are deleted once the rewrite's commit and the expiry
 * are in the catalog, and only those no snapshot left holds; a kill before leaves them as orphan
 * files for {@code sluice purge} ({@link OrphanFiles}). Callers run one compaction per table at a
 * time ({@link LakehouseEngine#bronzeLoaded}). Stateless.
 */
final class BronzeCompaction {

    private BronzeCompaction() {
    }

    /**
     * Compacts {@code partition} of the Bronze {@code table} and expires the table's older snapshots.
     *
     * @param spark the JVM's lakehouse session, asked for only when there is something to rewrite
     * @throws IOException when the table's manifests cannot be read
     */
    static void compact(Table table, Partition partition, Supplier<SparkSession> spark) throws IOException {
        Set<String> files = partitionFiles(table, partition, null);
        if (files.size() > 1) {
            // Iceberg's source registers its cache catalog on the thread's active session, and the rewrite reads
            // through this one: make it the active one (a backfill's threads have the root session otherwise)
            SparkSession session = spark.get();
            var previous = SparkSession.getActiveSession();
            SparkSession.setActiveSession(session);
            try {
                SparkActions.get(session).rewriteDataFiles(table)
                        .filter(Expressions.equal(LakehouseNames.PARTITION, partition.key()))
                        .option("min-input-files", "2")
                        .execute();
            } finally {
                if (previous.isDefined()) {
                    SparkSession.setActiveSession(previous.get());
                } else {
                    SparkSession.clearActiveSession();
                }
            }
            table.refresh();
        }
        table.expireSnapshots().expireOlderThan(table.currentSnapshot().timestampMillis()).retainLast(1).commit();
        if (files.size() > 1) {
            removeReplaced(table, partition, files);
        }
    }

    /** Deletes those of {@code before} (the partition's files before the rewrite) that no snapshot of the table holds now. */
    private static void removeReplaced(Table table, Partition partition, Set<String> before) throws IOException {
        table.refresh();
        Set<String> held = new HashSet<>();
        for (Snapshot s : table.snapshots()) {
            held.addAll(partitionFiles(table, partition, s.snapshotId()));
        }
        for (String f : before) {
            if (!held.contains(f)) {
                table.io().deleteFile(f);
            }
        }
    }

    /** The partition's live data files at a snapshot (null: the current one). */
    private static Set<String> partitionFiles(Table table, Partition partition, @Nullable Long snapshot) throws IOException {
        var scan = table.newScan().filter(Expressions.equal(LakehouseNames.PARTITION, partition.key()));
        Set<String> files = new HashSet<>();
        try (var tasks = (snapshot == null ? scan : scan.useSnapshot(snapshot)).planFiles()) {
            for (var task : tasks) {
                files.add(task.file().location());
            }
        }
        return files;
    }
}
