package dev.sluice.lineage;

import java.net.URI;
import java.nio.file.Path;
import java.util.Locale;

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

    /**
     * The identifier of {@code location}: a URI with a scheme, or a local path (absolute or not).
     *
     * @throws IllegalArgumentException when {@code location} has a scheme but is not a URI
     */
    public static LocationName of(String location) {
        String trimmed = location.endsWith("/") && location.length() > 1 ? location.substring(0, location.length() - 1) : location;
        URI uri = trimmed.matches("^[A-Za-z][A-Za-z0-9+.-]*:.*") && !trimmed.matches("^[A-Za-z]:[\\\\/].*") ? URI.create(trimmed) : null;
        if (uri == null || "file".equalsIgnoreCase(uri.getScheme())) {
            Path path = uri == null ? Path.of(trimmed) : Path.of(uri.getPath());
            return new LocationName("file", path.toAbsolutePath().normalize().toString());
        }
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        String path = uri.getPath() == null ? "" : uri.getPath();
        return switch (scheme) {
            case "s3", "s3a", "s3n" -> new LocationName("s3://" + uri.getAuthority(), stripSlash(path));
            case "gs", "wasbs", "abfss" -> new LocationName(scheme + "://" + uri.getAuthority(), stripSlash(path));
            default -> new LocationName(scheme + (uri.getAuthority() == null ? "" : "://" + uri.getAuthority()), path);
        };
    }

    private static String stripSlash(String path) {
        return path.startsWith("/") ? path.substring(1) : path;
    }
}
