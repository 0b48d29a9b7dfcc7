package dev.sluice.lineage;

import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A dataset a run read or wrote, as lineage names it: stable across partitions (a partition
 * travels in {@link #partitionKey()}, never in the name).
 *
 * @param namespace where it lives: the warehouse (e.g. {@code h2:file:/data/warehouse},
 *     {@code postgres://db:5432/warehouse}) or the landing location ({@code file:///data/sluice})
 * @param name {@code schema.table}, or for landed files the path template without its partition
 *     part ({@code landing/flights})
 * @param fields the columns as (name, type) pairs, in order; empty when unknown
 * @param partitionColumn the column that partitions it ({@code _partition}), or null
 * @param partitionKey the partition read or written, or null for a reference snapshot; an input
 *     read as a range of partitions (the input of a monthly rollup) is written {@code first/last},
 *     keys inclusive, e.g. {@code 2001-02-01/2001-02-28}
 * @param version the published version written (Silver/Gold), or null
 * @param rowCount rows written (outputs), or null
 * @param columnLineage for an output, where each of its columns comes from; empty when unknown
 * @param quality for an input a quality gate judged, what it found; else null
 * @param table for a dataset named by its storage location (a lakehouse table: namespace
 *     {@code file}, {@code hdfs://host:port} or {@code s3://bucket}, name its path, per the
 *     OpenLineage naming spec), the catalog table it is; else null
 */
public record LineageDataset(String namespace, String name, List<Field> fields, @Nullable String partitionColumn,
        @Nullable String partitionKey, @Nullable String version, @Nullable Long rowCount, List<ColumnInput> columnLineage,
        @Nullable Quality quality, @Nullable CatalogTable table) {

    public LineageDataset {
        fields = List.copyOf(fields);
        columnLineage = List.copyOf(columnLineage);
    }

    /** A dataset without column lineage or quality. */
    public LineageDataset(String namespace, String name, List<Field> fields, @Nullable String partitionColumn,
            @Nullable String partitionKey, @Nullable String version, @Nullable Long rowCount) {
        this(namespace, name, fields, partitionColumn, partitionKey, version, rowCount, List.of(), null, null);
    }

    /** A dataset with column lineage, without quality. */
    public LineageDataset(String namespace, String name, List<Field> fields, @Nullable String partitionColumn,
            @Nullable String partitionKey, @Nullable String version, @Nullable Long rowCount, List<ColumnInput> columnLineage) {
        this(namespace, name, fields, partitionColumn, partitionKey, version, rowCount, columnLineage, null, null);
    }

    /**
     * The name Sluice's lineage store, commands and page know this dataset by: the catalog table's
     * {@code schema.table} for a dataset named by its location, else {@link #name()}.
     */
    public String knownAs() {
        return table == null ? name : table.name();
    }

    /** This dataset with {@code quality}. */
    public LineageDataset withQuality(Quality quality) {
        return new LineageDataset(namespace, name, fields, partitionColumn, partitionKey, version, rowCount, columnLineage, quality, table);
    }

    /** This dataset with {@code columnLineage}. */
    public LineageDataset withColumnLineage(List<ColumnInput> columnLineage) {
        return new LineageDataset(namespace, name, fields, partitionColumn, partitionKey, version, rowCount, columnLineage, quality, table);
    }

    /** This dataset read as partition (or range) {@code partitionKey}, without a row count. */
    public LineageDataset readAs(String partitionKey) {
        return new LineageDataset(namespace, name, fields, partitionColumn, partitionKey, version, null, columnLineage, quality, table);
    }

    /**
     * The catalog table behind a dataset named by its storage location: the OpenLineage
     * {@code symlinks} identifier of type TABLE and the {@code storage} facet.
     *
     * @param namespace the catalog's namespace (the warehouse database holding the catalog, named
     *     as Sluice names the warehouse, e.g. {@code postgres://db:5432/warehouse})
     * @param name {@code schema.table}, e.g. {@code silver.lake_flights}
     * @param storageLayer the table format, e.g. {@code iceberg}
     * @param fileFormat its data files' format, e.g. {@code parquet}
     */
    public record CatalogTable(String namespace, String name, String storageLayer, String fileFormat) {
    }

    /**
     * What a quality gate found in a dataset partition (OpenLineage dataQualityMetrics and
     * dataQualityAssertions input facets).
     *
     * @param rowCount rows judged, or null
     * @param nullCounts NULLs per column, for the columns a completeness check judged
     * @param assertions each check: its id, whether it held, its column (or null)
     */
    public record Quality(@Nullable Long rowCount, Map<String, Long> nullCounts, List<Assertion> assertions) {
        public Quality {
            nullCounts = Map.copyOf(nullCounts);
            assertions = List.copyOf(assertions);
        }
    }

    /** One check's outcome. */
    public record Assertion(String assertion, boolean success, @Nullable String column) {
    }

    /**
     * One input of an output column (OpenLineage column lineage, DIRECT transformations).
     *
     * @param column the output column
     * @param namespace the input dataset's namespace
     * @param name the input dataset's name
     * @param field the input column
     * @param subtype IDENTITY (copied), TRANSFORMATION (computed from it) or AGGREGATION
     * @param masking true when the value is hashed or masked on the way (a PII policy)
     */
    public record ColumnInput(String column, String namespace, String name, String field, String subtype, boolean masking) {
    }

    /** A column: its name and logical type (e.g. {@code delay_min}, {@code long}). */
    public record Field(String name, String type) {
    }
}
