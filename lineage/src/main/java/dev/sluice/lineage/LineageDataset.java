package dev.sluice.lineage;

import java.util.List;
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
 * @param partitionKey the partition read or written, or null for a reference snapshot
 * @param version the published version written (Silver/Gold), or null
 * @param rowCount rows written (outputs), or null
 */
public record LineageDataset(String namespace, String name, List<Field> fields, @Nullable String partitionColumn,
        @Nullable String partitionKey, @Nullable String version, @Nullable Long rowCount) {

    public LineageDataset {
        fields = List.copyOf(fields);
    }

    /** A column: its name and logical type (e.g. {@code delay_min}, {@code long}). */
    public record Field(String name, String type) {
    }
}
