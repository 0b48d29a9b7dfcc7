package dev.sluice.warehouse.meta;

import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * {@code sluice.rollback_log}: each rollback of a partition: from and to version, who, when and why.
 * This class owns the table's name: code in any module reaches the table through {@link #TABLE}
 * (and names it to people with {@link #NAME}); no other class spells it (MetadataTableOwnersTest).
 */
public final class RollbackLogTable {

    /** The table's qualified name, {@code sluice.rollback_log}, for messages and help texts. */
    public static final String NAME = "sluice.rollback_log";
    /** The table, for jOOQ queries. */
    public static final Table<Record> TABLE = DSL.table(DSL.name("sluice", "rollback_log"));

    private RollbackLogTable() {
    }
}
