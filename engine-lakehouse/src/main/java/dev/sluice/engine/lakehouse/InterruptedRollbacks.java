package dev.sluice.engine.lakehouse;

import dev.sluice.control.version.PartitionVersions;
import dev.sluice.config.TableSpec;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.util.SnapshotUtil;
import org.jooq.DSLContext;
import org.jspecify.annotations.Nullable;

/**
 * Completes the lakehouse rollbacks a kill interrupted between their Iceberg commit and their
 * record in the control plane ({@link LakehousePublisher#restore}: main holds the target version's
 * files, {@code sluice.published_partition} still names the version rolled back from). The data
 * plane is the truth: for each partition the newest snapshot of main's history that published it
 * ({@code sluice.partition} in its summary) tells which version main holds; when that snapshot is a
 * rollback's ({@code sluice.rollback_from}) and the control plane names another version, the
 * rollback is recorded now from the snapshot's summary (from, to, run, who, why) as the rollback
 * itself would have recorded it. A snapshot of a plain publication is left alone: a run killed after
 * its Iceberg commit publishes again when restarted, and its gate step records it. Checked again
 * under the lock of the partition's published row ({@link PartitionVersions#lockPublished}), which
 * a rollback holds from before its commit to its record, so a rollback still under way is waited
 * for, never recorded twice. Stateless; callers give the transaction.
 */
final class InterruptedRollbacks {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(InterruptedRollbacks.class);

    /** Snapshot summary key of a rollback's commit: the version the partition was rolled back from. */
    static final String FROM_PROPERTY = "sluice.rollback_from";
    /** Snapshot summary key of a rollback's commit: who asked for it. */
    static final String BY_PROPERTY = "sluice.rollback_by";
    /** Snapshot summary key of a rollback's commit: why. */
    static final String REASON_PROPERTY = "sluice.rollback_reason";

    private InterruptedRollbacks() {
    }

    /**
     * Records the interrupted rollbacks of {@code table} (of {@code only}, or of every partition when
     * null), in the caller's transaction.
     *
     * @return the partitions whose rollback was recorded now
     */
    static List<Partition> complete(Catalog catalog, DSLContext dsl, TableSpec table, @Nullable Partition only) {
        if (!catalog.tableExists(LakehouseNames.iceberg(table.table()))) {
            return List.of();
        }
        PartitionVersions versions = new PartitionVersions(dsl);
        List<Partition> done = new ArrayList<>();
        for (Map.Entry<String, Snapshot> e : newestRollbacks(IcebergTables.load(catalog, table), only).entrySet()) {
            Partition partition = new Partition(e.getKey());
            if (agrees(versions, table, partition, e.getValue())) {
                continue;
            }
            versions.lockPublished(table.table(), partition);
            Snapshot now = newestRollbacks(IcebergTables.load(catalog, table), partition).get(e.getKey());
            if (now == null || agrees(versions, table, partition, now)) {
                continue; // recorded by the rollback itself meanwhile, or main moved on
            }
            Map<String, String> summary = now.summary();
            int from = Integer.parseInt(summary.get(FROM_PROPERTY));
            int to = Integer.parseInt(summary.get("sluice.version"));
            String who = summary.getOrDefault(BY_PROPERTY, "unknown");
            String why = summary.getOrDefault(REASON_PROPERTY, "not recorded");
            versions.recordRollback(table.table(), partition, from, to, RunId.parse(summary.get("sluice.run_id")), who, why);
            LOG.warn("{} partition {}: the rollback from version {} to {} ({} at {}) was committed to the lakehouse but not recorded"
                    + " (the process was stopped in between); recorded now", table.table(), partition, from, to, who,
                    java.time.Instant.ofEpochMilli(now.timestampMillis()));
            done.add(partition);
        }
        return done;
    }

    /** Whether the control plane's published version of the partition is the one the rollback's snapshot made main's. */
    private static boolean agrees(PartitionVersions versions, TableSpec table, Partition partition, Snapshot rollback) {
        Integer published = versions.published(table.table(), partition).orElse(null);
        return Objects.equals(published, Integer.valueOf(rollback.summary().get("sluice.version")));
    }

    /**
     * Per partition key (only {@code only}'s when not null), the newest snapshot of main's history
     * that published the partition, when that one is a rollback's.
     */
    private static Map<String, Snapshot> newestRollbacks(Table table, @Nullable Partition only) {
        Map<String, Snapshot> out = new LinkedHashMap<>();
        Snapshot current = table.currentSnapshot();
        if (current == null) {
            return out;
        }
        Set<String> seen = new HashSet<>();
        for (Snapshot s : SnapshotUtil.ancestorsOf(current.snapshotId(), table::snapshot)) {
            String key = s.summary() == null ? null : s.summary().get("sluice.partition");
            if (key == null || (only != null && !only.key().equals(key)) || !seen.add(key)) {
                continue;
            }
            if (s.summary().containsKey(FROM_PROPERTY) && s.summary().containsKey("sluice.version")) {
                out.put(key, s);
            }
            if (only != null) {
                break;
            }
        }
        return out;
    }
}
