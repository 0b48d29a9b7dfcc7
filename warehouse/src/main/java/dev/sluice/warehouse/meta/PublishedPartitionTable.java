package dev.sluice.warehouse.meta;

import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * {@code sluice.published_partition}: the published version of each (dataset, partition), written by the layer engine's publish and rollback in the control plane, read by freshness, data triggers, the catalog API and purge.
 * This class owns the table's name: code in any module reaches the table through {@link #TABLE}
 * (and names it to people with {@link #NAME}); no other class spells it (MetadataTableOwnersTest).
 */
public final class PublishedPartitionTable {

    /** The table's qualified name, {@code sluice.published_partition}, for messages and help texts. */
    public static final String NAME = "sluice.published_partition";
    /** The table, for jOOQ queries. */
    public static final Table<Record> TABLE = DSL.table(DSL.name("sluice", "published_partition"));

    private PublishedPartitionTable() {
    }
}
