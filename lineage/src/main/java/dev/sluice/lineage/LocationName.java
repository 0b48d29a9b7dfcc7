package dev.sluice.lineage;

import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The OpenLineage identifier of a dataset named by where its files live (an Iceberg table's
 * location), per the naming spec's file-system and blob-store rows
 * (https://openlineage.io/docs/spec/naming): a local path is namespace {@code file}, name the
 * absolute path; {@code hdfs://host:port/p} is namespace {@code hdfs://host:port}, name {@code /p};
 * {@code s3://bucket/key} (and Hadoop's {@code s3a}, {@code s3n}) is namespace {@code s3://bucket},
 * name {@code key}; {@code gs://}, {@code wasbs://} and {@code abfss://} likewise name the object
 * key. These are the names OpenLineage's Spark integration gives the same table, so events of other
 * Spark jobs that read it connect to Sluice's.
 *
 * @param namespace scheme and authority, or {@code file}
 * @param name the path or object key
 */
public record LocationName(String namespace, String name) {

    /** {@code scheme://authority/path}: parsed by hand, so that a path with spaces or {@code %} (valid in Hadoop paths, not in URIs) parses too. */
    private static final Pattern HIERARCHICAL = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*)://([^/]*)(/.*)?");
    /** {@code file:/path} (and {@code file:///path}, caught by {@link #HIERARCHICAL} first). */
    private static final Pattern FILE_URI = Pattern.compile("(?i)file:(/.*)");

    /**
     * The identifier of {@code location}: {@code scheme://authority/path}, {@code file:/path}, or a
     * local path (absolute or not; made absolute). Never throws on odd characters: the location is
     * the one the catalog already accepted.
     */
    public static LocationName of(String location) {
        String trimmed = location.endsWith("/") && location.length() > 1 ? location.substring(0, location.length() - 1) : location;
        Matcher h = HIERARCHICAL.matcher(trimmed);
        if (h.matches()) {
            String scheme = h.group(1).toLowerCase(Locale.ROOT);
            String path = h.group(3) == null ? "" : h.group(3);
            return switch (scheme) {
                case "file" -> local(path.isEmpty() ? "/" : path);
                case "s3", "s3a", "s3n" -> new LocationName("s3://" + h.group(2), stripSlash(path));
                case "gs", "wasbs", "abfss" -> new LocationName(scheme + "://" + h.group(2), stripSlash(path));
                default -> new LocationName(scheme + "://" + h.group(2), path);
            };
        }
        Matcher f = FILE_URI.matcher(trimmed);
        return local(f.matches() ? f.group(1) : trimmed);
    }

    private static LocationName local(String path) {
        return new LocationName("file", Path.of(path).toAbsolutePath().normalize().toString());
    }

    private static String stripSlash(String path) {
        return path.startsWith("/") ? path.substring(1) : path;
    }
}
