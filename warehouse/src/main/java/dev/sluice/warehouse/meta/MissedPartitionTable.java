package dev.sluice.warehouse.meta;

import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * {@code sluice.missed_partition}: the partitions a scheduler's misfire policy skipped, recorded by the scheduler, shown by sluice status and trimmed by purge.
 * This class owns the table's name: code in any module reaches the table through {@link #TABLE}
 * (and names it to people with {@link #NAME}); no other class spells it (MetadataTableOwnersTest).
 */
public final class MissedPartitionTable {

    /** The table's qualified name, {@code sluice.missed_partition}, for messages and help texts. */
    public static final String NAME = "sluice.missed_partition";
    /** The table, for jOOQ queries. */
    public static final Table<Record> TABLE = DSL.table(DSL.name("sluice", "missed_partition"));

    private MissedPartitionTable() {
    }
}
