package dev.sluice.engine;

import org.jspecify.annotations.Nullable;

/**
 * Where a table an engine keeps as files lives, and which version of it is current: what lineage
 * names such a table by (the OpenLineage naming of a table in a table format is its location).
 *
 * @param location the table's root, as the catalog records it: a local path or a Hadoop-FS URI
 *     ({@code file:/…}, {@code hdfs://host:port/…}, {@code s3a://bucket/…})
 * @param storageLayer the table format, e.g. {@code iceberg}
 * @param fileFormat its data files' format, e.g. {@code parquet}
 * @param partitionColumn the physical column holding the partition, e.g. {@code _sluice_partition}
 * @param currentVersion the current snapshot's id in decimal, or null for a table without one yet
 */
public record StoredTable(String location, String storageLayer, String fileFormat, String partitionColumn,
        @Nullable String currentVersion) {
}
