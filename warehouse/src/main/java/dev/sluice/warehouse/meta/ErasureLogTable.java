package dev.sluice.warehouse.meta;

import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * {@code sluice.erasure_log}: the audit log of erasure requests (sluice erase), written by the erase and read by the job engine, which warns when a load may bring an erased value back.
 * This class owns the table's name: code in any module reaches the table through {@link #TABLE}
 * (and names it to people with {@link #NAME}); no other class spells it (MetadataTableOwnersTest).
 */
public final class ErasureLogTable {

    /** The table's qualified name, {@code sluice.erasure_log}, for messages and help texts. */
    public static final String NAME = "sluice.erasure_log";
    /** The table, for jOOQ queries. */
    public static final Table<Record> TABLE = DSL.table(DSL.name("sluice", "erasure_log"));

    private ErasureLogTable() {
    }
}
