package dev.sluice.engine.lakehouse;

import java.util.HashSet;
import java.util.Set;
import org.apache.iceberg.Table;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Expires a table's snapshots older than a time, never the current one, and deletes every data file
 * that a snapshot referenced before and none references after. Iceberg's own cleanup leaves a file
 * removed by the retained snapshot itself (measured here with 1.10.0: the file a copy-on-write
 * UPDATE replaced stayed on disk), so the difference of the table's {@code all_data_files} before
 * and after is deleted here. Stateless.
 */
final class SnapshotExpiry {

    private SnapshotExpiry() {
    }

    /**
     * @param table the table, loaded from the lakehouse catalog
     * @param sparkName the same table in Spark SQL ({@link LakehouseNames#spark})
     * @param olderThanMillis snapshots committed before this (epoch ms) expire, the current one excepted
     * @return data files deleted
     */
    static long expire(SparkSession spark, Table table, String sparkName, long olderThanMillis) {
        Set<String> before = dataFiles(spark, sparkName);
        table.refresh();
        if (table.currentSnapshot() == null) {
            return 0;
        }
        table.expireSnapshots().expireOlderThan(Math.min(olderThanMillis, table.currentSnapshot().timestampMillis() + 1))
                .retainLast(1).cleanExpiredFiles(true).commit();
        Set<String> reachable = dataFiles(spark, sparkName);
        long deleted = 0;
        for (String f : before) {
            if (!reachable.contains(f)) {
                table.io().deleteFile(f);
                deleted++;
            }
        }
        return deleted;
    }

    /** The data file paths of every snapshot of the table ({@code all_data_files}). */
    private static Set<String> dataFiles(SparkSession spark, String sparkName) {
        Set<String> paths = new HashSet<>();
        for (Row r : spark.sql("SELECT DISTINCT file_path FROM " + sparkName + ".all_data_files").collectAsList()) {
            paths.add(r.getString(0));
        }
        return paths;
    }
}
