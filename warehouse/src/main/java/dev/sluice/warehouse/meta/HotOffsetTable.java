package dev.sluice.warehouse.meta;

import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * {@code sluice.hot_offset}: the hot path's consumed offsets per consumer group, topic and partition, stored in the sink's transaction (the source of truth of its position) and read by the reconciliation to know whether the hot path has seen a day.
 * This class owns the table's name: code in any module reaches the table through {@link #TABLE}
 * (and names it to people with {@link #NAME}); no other class spells it (MetadataTableOwnersTest).
 */
public final class HotOffsetTable {

    /** The table's qualified name, {@code sluice.hot_offset}, for messages and help texts. */
    public static final String NAME = "sluice.hot_offset";
    /** The table, for jOOQ queries. */
    public static final Table<Record> TABLE = DSL.table(DSL.name("sluice", "hot_offset"));

    private HotOffsetTable() {
    }
}
