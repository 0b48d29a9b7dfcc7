package dev.sluice.engine.warehouse;

import dev.sluice.engine.BronzeRedaction;
import dev.sluice.config.ColumnType;
import dev.sluice.config.TableSpec;
import java.util.Set;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * Redacts an erasure request's raw value in a Bronze table of the warehouse, in the caller's
 * transaction: an UPDATE of the rows holding the typed value, then each row whose
 * {@code _parse_errors} holds the raw text. Thread-safe (stateless apart from the DSL).
 */
final class BronzeRedactor {

    private final DSLContext dsl;

    BronzeRedactor(DSLContext dsl) {
        this.dsl = dsl;
    }

    long redact(TableSpec t, BronzeRedaction r, Set<String> partitions) {
        Integer exists = dsl.resultQuery("SELECT COUNT(*) FROM information_schema.tables WHERE LOWER(table_schema) = ?"
                + " AND LOWER(table_name) = ?", t.table().schema(), t.table().table()).fetchOne(0, Integer.class);
        if (exists == null || exists == 0) {
            return 0; // never loaded: nothing to erase
        }
        Table<?> table = LayerTables.table(t.table());
        Field<Object> col = DSL.field(DSL.name(r.column()));
        Field<String> errors = DSL.field(DSL.name("_parse_errors"), String.class);
        Field<String> partition = DSL.field(DSL.name("_partition"), String.class);
        long rows = 0;
        if (r.typed() != null) {
            Condition holds = col.eq(DSL.val(r.typed()));
            partitions.addAll(dsl.selectDistinct(partition).from(table).where(holds).fetch(partition));
            rows = r.type() == ColumnType.STRING
                    ? dsl.update(table).set(DSL.field(DSL.name(r.column()), String.class), r.marker()).where(holds).execute()
                    : dsl.update(table).setNull(col).where(holds).execute();
        }
        // a value that did not parse is NULL in its column and kept raw in _parse_errors
        var withErrors = dsl.select(DSL.field(DSL.name("_source")), DSL.field(DSL.name("_source_pos")),
                        DSL.field(DSL.name("_run_id")), partition, errors)
                .from(table).where(errors.contains(r.raw())).fetch();
        for (var row : withErrors) {
            String redacted = r.parseErrors().apply(row.get(errors));
            if (!redacted.equals(row.get(errors))) {
                dsl.update(table).set(errors, redacted).where(
                        DSL.field(DSL.name("_source")).eq(row.get(0)), DSL.field(DSL.name("_source_pos")).eq(row.get(1)),
                        DSL.field(DSL.name("_run_id")).eq(row.get(2))).execute();
                partitions.add(row.get(partition));
                rows++;
            }
        }
        return rows;
    }
}
