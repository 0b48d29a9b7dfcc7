package dev.sluice.engine.lakehouse;

import dev.sluice.config.TableSpec;
import dev.sluice.core.Partition;
import dev.sluice.core.SluiceException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ManageSnapshots;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.jspecify.annotations.Nullable;

/**
 * The versions of a lakehouse Silver/Gold partition as Iceberg branches: version {@code N} of
 * partition {@code P} is written to branch {@code sluice_vN_P} (the key's non-alphanumerics as
 * {@code _}: {@code sluice_v3_2001_07_01}), made from the table's main branch at the time, where
 * readers of the table (its main branch) do not see it. The gate judges the branch's head; a pass
 * publishes it with one Iceberg commit on main that replaces exactly that partition's data files by
 * the branch's ({@code OverwriteFiles}, conflict detection limited to the partition), so partitions
 * published at once do not undo each other, and a failed gate leaves main's files as they were. A
 * kept version is a branch: table-wide snapshot expiry never deletes the files a branch head
 * references, time travel reads it ({@code VERSION AS OF 'sluice_v1_2001_07_01'}), and rollback
 * publishes it again. Stateless and thread-safe; each method loads the table's current metadata.
 */
final class PartitionBranches {

    private static final Pattern NAME = Pattern.compile("sluice_v(\\d+)_(.+)");

    private PartitionBranches() {
    }

    /** The branch of version {@code version} of {@code partition}. */
    static String name(Partition partition, int version) {
        return "sluice_v" + version + "_" + partition.key().replaceAll("[^0-9A-Za-z]", "_");
    }

    /** The Spark SQL identifier that writes to {@code branch} of {@code table}. */
    static String sparkTarget(TableSpec table, String branch) {
        return LakehouseNames.spark(table.table()) + ".`branch_" + branch + "`";
    }

    /**
     * Makes {@code branch} start at main's current snapshot (an empty branch for a table never
     * written): a leftover of a run killed before it recorded its version is replaced.
     */
    static void stage(Table table, String branch) {
        refs(table, m -> {
            if (table.refs().containsKey(branch)) {
                m.removeBranch(branch);
                return true;
            }
            return false;
        });
        refs(table, m -> {
            Snapshot current = table.currentSnapshot();
            if (current == null) {
                m.createBranch(branch);
            } else {
                m.createBranch(branch, current.snapshotId());
            }
            return true;
        });
    }

    /**
     * Points each of {@code branches} at the head of {@code from} in one change of refs (a
     * branch left by an earlier, unrecorded write is moved): a wave's versions share the snapshot
     * that wrote them all, each branch holding its own partition's files.
     */
    static void branchAt(Table table, String from, List<String> branches) {
        if (branches.isEmpty()) {
            return;
        }
        refs(table, m -> {
            long head = table.refs().get(from).snapshotId();
            for (String b : branches) {
                if (table.refs().containsKey(b)) {
                    m.replaceBranch(b, head);
                } else {
                    m.createBranch(b, head);
                }
            }
            return true;
        });
    }

    /** The most attempts at a change of refs that concurrent commits keep failing. */
    private static final int REF_ATTEMPTS = 25;

    /**
     * Commits a change of the table's refs that {@code change} makes on fresh metadata (it returns
     * false when there is nothing to change), trying again from the then-current metadata when a
     * concurrent commit won: Iceberg's {@code ManageSnapshots} does not re-apply itself on a newer
     * base ("Table metadata refresh is required", measured with 1.10.0 when the partitions of a
     * wave stage their branches at once). Waits 5 ms × attempt between attempts.
     */
    private static void refs(Table table, java.util.function.Predicate<ManageSnapshots> change) {
        for (int attempt = 1; ; attempt++) {
            table.refresh();
            ManageSnapshots m = table.manageSnapshots();
            if (!change.test(m)) {
                return;
            }
            try {
                m.commit();
                return;
            } catch (org.apache.iceberg.exceptions.CommitFailedException raced) {
                if (attempt >= REF_ATTEMPTS) {
                    throw raced;
                }
                try {
                    Thread.sleep(5L * attempt);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw raced;
                }
            }
        }
    }

    /** The snapshot at the head of {@code branch}, or null when the branch does not exist (pruned) or is empty. */
    static @Nullable Long head(Table table, String branch) {
        table.refresh();
        SnapshotRef ref = table.refs().get(branch);
        return ref == null ? null : ref.snapshotId();
    }

    /**
     * Makes the branch's data files of {@code partition} main's: one commit that removes main's files
     * of the partition and adds the branch's, validated against changes to that partition only
     * since main was read. Nothing is committed when main already holds exactly those files (a
     * publish repeated after its commit).
     *
     * @param sinceBranchBase validate against changes to the partition since the branch was made
     *     from main (a {@code merge-on-key} version carries main's rows of that time), not only since
     *     main was read here
     * @throws SluiceException when the branch does not exist (a version never written or pruned)
     * @throws org.apache.iceberg.exceptions.ValidationException when the partition changed on main
     *     meanwhile (another publish or a rollback of the same partition)
     */
    static void publish(Table table, Partition partition, String branch, Map<String, String> summary, boolean sinceBranchBase) {
        table.refresh();
        if (!table.refs().containsKey(branch)) {
            throw new SluiceException(table.name() + " keeps no branch " + branch + " (version pruned or never written)");
        }
        Expression in = Expressions.equal(LakehouseNames.PARTITION, partition.key());
        List<DataFile> files = dataFiles(table.newScan().useRef(branch).filter(in));
        Snapshot main = table.currentSnapshot();
        if (main != null && paths(dataFiles(table.newScan().filter(in))).equals(paths(files))) {
            return;
        }
        OverwriteFiles overwrite = table.newOverwrite().overwriteByRowFilter(in)
                .conflictDetectionFilter(in).validateNoConflictingData().validateNoConflictingDeletes();
        Long from = sinceBranchBase ? branchBase(table, branch, main) : main == null ? null : main.snapshotId();
        if (from != null) {
            overwrite.validateFromSnapshot(from);
        }
        files.forEach(overwrite::addFile);
        summary.forEach(overwrite::set);
        overwrite.commit();
    }

    /**
     * The snapshot of main that {@code branch} was made from: its newest snapshot that is also one
     * of main's (the head itself when nothing was written on the branch), or null when there is
     * none (main empty then, or its history expired: the whole history is validated).
     */
    private static @Nullable Long branchBase(Table table, String branch, @Nullable Snapshot main) {
        if (main == null) {
            return null;
        }
        Set<Long> history = new java.util.HashSet<>(org.apache.iceberg.util.SnapshotUtil.ancestorIds(main, table::snapshot));
        for (Snapshot s = table.snapshot(table.refs().get(branch).snapshotId()); s != null;
                s = s.parentId() == null ? null : table.snapshot(s.parentId())) {
            if (history.contains(s.snapshotId())) {
                return s.snapshotId();
            }
        }
        return null;
    }

    /** Removes {@code branch} when it exists (retried against concurrent commits). */
    static void removeBranch(Table table, String branch) {
        refs(table, m -> {
            if (!table.refs().containsKey(branch)) {
                return false;
            }
            m.removeBranch(branch);
            return true;
        });
    }

    /** The versions of {@code partition} that have a branch, oldest first. */
    static List<Integer> kept(Table table, Partition partition) {
        table.refresh();
        return new ArrayList<>(branches(table, partition).keySet());
    }

    /** Removes the branches of {@code partition}'s versions below {@code keepFrom} (one commit; none when nothing goes). */
    static void prune(Table table, Partition partition, int keepFrom) {
        refs(table, m -> {
            boolean any = false;
            for (Map.Entry<Integer, String> b : branches(table, partition).entrySet()) {
                if (b.getKey() < keepFrom) {
                    m.removeBranch(b.getValue());
                    any = true;
                }
            }
            return any;
        });
    }

    private static TreeMap<Integer, String> branches(Table table, Partition partition) {
        String suffix = "_" + partition.key().replaceAll("[^0-9A-Za-z]", "_");
        TreeMap<Integer, String> out = new TreeMap<>();
        for (String ref : table.refs().keySet()) {
            Matcher m = NAME.matcher(ref);
            if (m.matches() && ref.endsWith(suffix) && ("_" + m.group(2)).equals(suffix)) {
                out.put(Integer.parseInt(m.group(1)), ref);
            }
        }
        return out;
    }

    private static List<DataFile> dataFiles(TableScan scan) {
        List<DataFile> out = new ArrayList<>();
        try (CloseableIterable<FileScanTask> tasks = scan.planFiles()) {
            for (FileScanTask t : tasks) {
                out.add(t.file());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    private static Set<String> paths(List<DataFile> files) {
        Set<String> out = new TreeSet<>();
        files.forEach(f -> out.add(f.location()));
        return out;
    }
}
