package dev.sluice.hotpath;

import dev.sluice.config.ColumnSpec;
import dev.sluice.config.ColumnType;
import dev.sluice.config.ContractSpec;
import dev.sluice.config.WindowSpec;
import dev.sluice.warehouse.ColumnTypes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;
import org.jooq.DataType;
import org.jooq.Field;
import org.jooq.Name;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * The table of one live aggregate ({@link WindowSpec}): its shape, its creation and its lock.
 * Columns, in this order: the group columns (typed as the contract's, NOT NULL), {@code window_start}
 * and {@code window_end} (TIMESTAMP(0), UTC), {@code window_start_s} and {@code window_end_s} (BIGINT,
 * epoch seconds), the measures ({@link #type}), the helper columns of avg measures
 * ({@link #helpers}), {@code _updated_at} (TIMESTAMP WITH TIME ZONE); primary key: the group columns
 * and {@code window_start_s}. The lock is the table's row of {@code sluice.hot_window_lock}: a batch
 * that rewrites the table's windows holds it to the end of its transaction, so two batches never
 * rewrite one window at once. Immutable and thread-safe.
 */
final class WindowTable {

    private static final Table<?> LOCKS = DSL.table(DSL.name("sluice", "hot_window_lock"));
    private static final Field<String> LOCK_NAME = DSL.field(DSL.name("window_table"), String.class);

    private final WindowSpec window;
    private final ContractSpec contract;
    private final Table<?> table;

    WindowTable(WindowSpec window, ContractSpec contract) {
        this.window = window;
        this.contract = contract;
        this.table = DSL.table(DSL.name(window.table().schema(), window.table().table()));
    }

    /** The table, schema-qualified. */
    Table<?> table() {
        return table;
    }

    /** The helper columns of {@code window}: for each avg measure its non-null count (BIGINT) and sum (DOUBLE). */
    static Map<String, DataType<?>> helpers(WindowSpec window) {
        Map<String, DataType<?>> out = new LinkedHashMap<>();
        window.measures().forEach((name, m) -> {
            if (m.function().equals("avg")) {
                out.put("_n_" + name, SQLDataType.BIGINT);
                out.put("_sum_" + name, SQLDataType.DOUBLE);
            }
        });
        return out;
    }

    /**
     * The stored type of a measure: BIGINT for count, DOUBLE for avg; for sum, min and max BIGINT
     * over an int or long column, else DOUBLE.
     */
    DataType<?> type(WindowSpec.Measure m) {
        return switch (m.function()) {
            case "count" -> SQLDataType.BIGINT;
            case "avg" -> SQLDataType.DOUBLE;
            default -> {
                ColumnType t = column(m.column()).type();
                yield t == ColumnType.INT || t == ColumnType.LONG ? SQLDataType.BIGINT : SQLDataType.DOUBLE;
            }
        };
    }

    /** The contract's column {@code name}; the spec's validation makes sure it is there. */
    ColumnSpec column(String name) {
        return contract.columns().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    /**
     * Creates the schema and the table when they do not exist, adds the helper columns to a table
     * from before them, and inserts the table's lock row when it is not there.
     */
    void create(DSLContext dsl) {
        dsl.createSchemaIfNotExists(DSL.name(window.table().schema())).execute();
        var create = dsl.createTableIfNotExists(table);
        List<Name> key = new ArrayList<>();
        for (String g : window.groupBy()) {
            create = create.column(DSL.name(g), ColumnTypes.of(column(g)).notNull());
            key.add(DSL.name(g));
        }
        create = create.column(DSL.name("window_start"), SQLDataType.LOCALDATETIME(0).notNull())
                .column(DSL.name("window_end"), SQLDataType.LOCALDATETIME(0).notNull())
                .column(DSL.name("window_start_s"), SQLDataType.BIGINT.notNull())
                .column(DSL.name("window_end_s"), SQLDataType.BIGINT.notNull());
        for (Map.Entry<String, WindowSpec.Measure> m : window.measures().entrySet()) {
            create = create.column(DSL.name(m.getKey()), type(m.getValue()));
        }
        for (Map.Entry<String, DataType<?>> h : helpers(window).entrySet()) {
            create = create.column(DSL.name(h.getKey()), h.getValue());
        }
        key.add(DSL.name("window_start_s"));
        create.column(DSL.name("_updated_at"), SQLDataType.TIMESTAMPWITHTIMEZONE.notNull())
                .primaryKey(key.toArray(Name[]::new)).execute();
        for (Map.Entry<String, DataType<?>> h : helpers(window).entrySet()) {
            dsl.alterTable(table).addColumnIfNotExists(DSL.name(h.getKey()), h.getValue()).execute(); // a table from before the helpers
        }
        dsl.insertInto(LOCKS).set(LOCK_NAME, window.table().qualifiedName())
                .onConflict(DSL.field(DSL.name("sluice", "hot_window_lock", "window_table"))).doNothing().execute();
    }

    /** Takes the table's lock in {@code tx}, held to the end of the transaction (SELECT … FOR UPDATE). */
    void lock(DSLContext tx) {
        tx.select(LOCK_NAME).from(LOCKS).where(LOCK_NAME.eq(window.table().qualifiedName())).forUpdate().fetch();
    }
}
