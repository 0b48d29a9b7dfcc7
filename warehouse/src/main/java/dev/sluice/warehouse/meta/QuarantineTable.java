package dev.sluice.warehouse.meta;

import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * {@code sluice.quarantine}: the one quarantine store of batch rows and stream events alike (raw record kept, with file or topic, row or offset, rule and reason), written by the Silver steps, the gates and the hot path, read by the commands, redacted by erase.
 * This class owns the table's name: code in any module reaches the table through {@link #TABLE}
 * (and names it to people with {@link #NAME}); no other class spells it (MetadataTableOwnersTest).
 */
public final class QuarantineTable {

    /** The table's qualified name, {@code sluice.quarantine}, for messages and help texts. */
    public static final String NAME = "sluice.quarantine";
    /** The table, for jOOQ queries. */
    public static final Table<Record> TABLE = DSL.table(DSL.name("sluice", "quarantine"));

    private QuarantineTable() {
    }
}
