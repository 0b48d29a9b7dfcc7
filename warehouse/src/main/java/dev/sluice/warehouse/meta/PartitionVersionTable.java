package dev.sluice.warehouse.meta;

import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * {@code sluice.partition_version}: every version of each (dataset, partition) a layer engine wrote, with its run, in the control plane (the versions kept for rollback).
 * This class owns the table's name: code in any module reaches the table through {@link #TABLE}
 * (and names it to people with {@link #NAME}); no other class spells it (MetadataTableOwnersTest).
 */
public final class PartitionVersionTable {

    /** The table's qualified name, {@code sluice.partition_version}, for messages and help texts. */
    public static final String NAME = "sluice.partition_version";
    /** The table, for jOOQ queries. */
    public static final Table<Record> TABLE = DSL.table(DSL.name("sluice", "partition_version"));

    private PartitionVersionTable() {
    }
}
