package dev.sluice.engine.lakehouse;

import dev.sluice.core.SluiceException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.ReachableFileUtil;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsPrefixOperations;

/**
 * The orphan files of an Iceberg table: files under the table's location that nothing of the table
 * references, found by a plain listing of the location against the files reachable from the table's
 * metadata (Iceberg's {@code DeleteOrphanFiles} action defines them the same way, as a Spark job):
 * the current metadata file and those of its metadata log, the version hint, statistics files, and
 * of every snapshot (main's, branches', tags') its manifest list, its manifests and their live data
 * and delete files. A file is an orphan only when it was last modified before the given time (the
 * grace period), so that the files of a write in flight, written but not yet committed, are never
 * taken. Hidden files (a name, or a directory below the location, starting with {@code .}, or with
 * {@code _} unless it is a partition directory {@code name=value}) are skipped, as Iceberg's action
 * skips them: Hadoop's checksum files go with their file.
 *
 * <p>The location is listed before the metadata is read, so that a file committed meanwhile is
 * reachable. Works on any {@link SupportsPrefixOperations} file IO (the lakehouse's Hadoop file IO).
 * Stateless.
 */
final class OrphanFiles {

    private OrphanFiles() {
    }

    /**
     * The orphan files of {@code table}, as listed (their locations in the file IO's form).
     *
     * @param modifiedBefore only files last modified before this
     * @throws SluiceException when the table's file IO cannot list a location
     */
    static List<String> find(Table table, Instant modifiedBefore) {
        if (!(table.io() instanceof SupportsPrefixOperations listing)) {
            throw new SluiceException(table.name() + ": its file IO " + table.io().getClass().getName()
                    + " cannot list the table's location, so its orphan files cannot be found");
        }
        List<FileInfo> listed = new ArrayList<>();
        String root = normal(table.location());
        for (FileInfo f : listing.listPrefix(table.location())) {
            if (f.createdAtMillis() < modifiedBefore.toEpochMilli() && !hidden(root, normal(f.location()))) {
                listed.add(f);
            }
        }
        table.refresh();
        Set<String> reachable = reachable(table);
        List<String> orphans = new ArrayList<>();
        for (FileInfo f : listed) {
            if (!reachable.contains(normal(f.location()))) {
                orphans.add(f.location());
            }
        }
        return orphans;
    }

    /**
     * Deletes (or with {@code dryRun} only counts) the orphan files of {@code table} last modified
     * before {@code modifiedBefore} ({@link #find}).
     *
     * @return the files deleted (or that would be)
     */
    static long delete(Table table, Instant modifiedBefore, boolean dryRun) {
        List<String> orphans = find(table, modifiedBefore);
        if (!dryRun) {
            orphans.forEach(table.io()::deleteFile);
        }
        return orphans.size();
    }

    /** Every file the table's metadata references, normalised ({@link #normal}). */
    private static Set<String> reachable(Table table) {
        Set<String> files = new HashSet<>();
        ReachableFileUtil.metadataFileLocations(table, false).forEach(f -> files.add(normal(f)));
        files.add(normal(ReachableFileUtil.versionHintLocation(table)));
        ReachableFileUtil.statisticsFilesLocations(table).forEach(f -> files.add(normal(f)));
        table.partitionStatisticsFiles().forEach(f -> files.add(normal(f.path())));
        Set<String> manifests = new HashSet<>();
        for (Snapshot s : table.snapshots()) {
            if (s.manifestListLocation() != null) {
                files.add(normal(s.manifestListLocation()));
            }
            for (ManifestFile m : s.allManifests(table.io())) {
                if (manifests.add(m.path())) {
                    files.add(normal(m.path()));
                    live(table, m).forEach(f -> files.add(normal(f)));
                }
            }
        }
        return files;
    }

    /** The locations of a manifest's live (added or existing) data or delete files. */
    private static List<String> live(Table table, ManifestFile manifest) {
        List<String> out = new ArrayList<>();
        try (ManifestReader<? extends ContentFile<?>> reader = switch (manifest.content()) {
            case DATA -> ManifestFiles.read(manifest, table.io(), table.specs());
            case DELETES -> ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs());
        }) {
            reader.forEach(f -> out.add(f.location()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read manifest " + manifest.path() + " of " + table.name(), e);
        }
        return out;
    }

    /** A location with a local file system's scheme and extra slashes taken off ({@code file:///x}, {@code file:/x}: {@code /x}). */
    static String normal(String location) {
        String l = location.startsWith("file:") ? location.substring("file:".length()) : location;
        return l.startsWith("//") ? "/" + l.replaceFirst("^/+", "") : l;
    }

    /** Whether a file below {@code root} is hidden: a name or directory starting with "." or "_" (a partition directory excepted). */
    static boolean hidden(String root, String file) {
        String relative = file.startsWith(root) ? file.substring(root.length()) : file;
        for (String part : relative.split("/")) {
            if (part.startsWith(".") || (part.startsWith("_") && !part.contains("="))) {
                return true;
            }
        }
        return false;
    }
}
