package dev.sluice.hotpath;

import dev.sluice.config.ColumnSpec;
import dev.sluice.config.ContractSpec;
import dev.sluice.core.DatasetRef;
import dev.sluice.warehouse.ColumnTypes;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * The shape of the hot path's sink table ({@code hot_path.sink}) and its creation. Columns, in this
 * order: the contract's columns (typed by {@link ColumnTypes}, nullable), then, all NOT NULL:
 * <ul>
 *   <li>{@code _event_id} VARCHAR(200): the record key, the primary key;</li>
 *   <li>{@code _content_hash} VARCHAR(64): {@link EventDecoder.Event#contentHash()};</li>
 *   <li>{@code _event_time} TIMESTAMP(6): the event time, UTC, no time zone;</li>
 *   <li>{@code _source} VARCHAR(300): {@code kafka:<topic>/<partition>}; {@code _source_pos}
 *       BIGINT: the offset;</li>
 *   <li>{@code _ingested_at} TIMESTAMP WITH TIME ZONE: when the batch wrote it;</li>
 *   <li>{@code _event_epoch_s} BIGINT: the event time in whole epoch seconds (floor), indexed;</li>
 *   <li>{@code _late} BOOLEAN: too late, so left out of the windows.</li>
 * </ul>
 * On H2 {@code _content_hash} is indexed too (a window counting each content once looks duplicates
 * up by it); not on PostgreSQL, where such a window claims contents in a table of its own
 * ({@link WindowContents}) and nothing looks the sink up by content: the index cost a B-tree entry
 * of a random 64-character key per event (measured, 2 consumers, 500,000 flights: 22,477 and 22,994
 * events/s with it, 24,390 and 31,023 without). A sink created before keeps its index; dropping it
 * ({@code DROP INDEX <schema>.<table>_content_ix}) is safe. Immutable and thread-safe.
 */
final class SinkTable {

    /** {@code _event_id}, unqualified. */
    static final Field<String> EVENT_ID = DSL.field(DSL.name("_event_id"), String.class);

    /** The longest event id the sink keeps, characters (Java's UTF-16 units, as H2 counts them; PostgreSQL counts code points, never more). */
    static final int EVENT_ID_CHARS = 200;
    /** {@code _late}, unqualified. */
    static final Field<Boolean> LATE = DSL.field(DSL.name("_late"), Boolean.class);

    private final DatasetRef sink;
    private final ContractSpec contract;
    private final Table<?> table;

    SinkTable(DatasetRef sink, ContractSpec contract) {
        this.sink = sink;
        this.contract = contract;
        this.table = DSL.table(DSL.name(sink.schema(), sink.table()));
    }

    /** The table, schema-qualified. */
    Table<?> table() {
        return table;
    }

    /** {@code _event_id} qualified by schema and table: the conflict target of an insert. */
    Field<Object> qualifiedEventId() {
        return DSL.field(DSL.name(sink.schema(), sink.table(), "_event_id"));
    }

    /** Creates the schema, the table and its two indexes when they do not exist. */
    void create(DSLContext dsl) {
        dsl.createSchemaIfNotExists(DSL.name(sink.schema())).execute();
        var create = dsl.createTableIfNotExists(table);
        for (ColumnSpec c : contract.columns()) {
            create = create.column(DSL.name(c.name()), ColumnTypes.of(c));
        }
        create.column(DSL.name("_event_id"), SQLDataType.VARCHAR(EVENT_ID_CHARS).notNull())
                .column(DSL.name("_content_hash"), SQLDataType.VARCHAR(64).notNull())
                .column(DSL.name("_event_time"), SQLDataType.LOCALDATETIME(6).notNull())
                .column(DSL.name("_source"), SQLDataType.VARCHAR(300).notNull())
                .column(DSL.name("_source_pos"), SQLDataType.BIGINT.notNull())
                .column(DSL.name("_ingested_at"), SQLDataType.TIMESTAMPWITHTIMEZONE.notNull())
                .column(DSL.name("_event_epoch_s"), SQLDataType.BIGINT.notNull())
                .column(DSL.name("_late"), SQLDataType.BOOLEAN.notNull())
                .primaryKey(DSL.name("_event_id"))
                .execute();
        dsl.createIndexIfNotExists(DSL.name(sink.table() + "_time_ix")).on(table, DSL.field(DSL.name("_event_epoch_s")))
                .execute();
        // exact duplicates are looked up by content when a window counts each content once, on H2; PostgreSQL's windows
        // claim contents in a table of their own (WindowContents) and sessions group a time range: no lookup by content
        if (dsl.family() != org.jooq.SQLDialect.POSTGRES) {
            dsl.createIndexIfNotExists(DSL.name(sink.table() + "_content_ix")).on(table, DSL.field(DSL.name("_content_hash")))
                    .execute();
        }
    }

    /** Where {@code _event_id} is in {@link #fields} and {@link #row}: after the contract's columns. */
    int eventIdIndex() {
        return contract.columns().size();
    }

    /** Every column, typed, in the order of {@link #row}. */
    List<Field<?>> fields() {
        List<Field<?>> fields = new ArrayList<>();
        contract.columns().forEach(c -> fields.add(DSL.field(DSL.name(c.name()), ColumnTypes.of(c))));
        fields.add(DSL.field(DSL.name("_event_id"), SQLDataType.VARCHAR(EVENT_ID_CHARS)));
        fields.add(DSL.field(DSL.name("_content_hash"), SQLDataType.VARCHAR(64)));
        fields.add(DSL.field(DSL.name("_event_time"), SQLDataType.LOCALDATETIME(6)));
        fields.add(DSL.field(DSL.name("_source"), SQLDataType.VARCHAR(300)));
        fields.add(DSL.field(DSL.name("_source_pos"), SQLDataType.BIGINT));
        fields.add(DSL.field(DSL.name("_ingested_at"), SQLDataType.TIMESTAMPWITHTIMEZONE));
        fields.add(DSL.field(DSL.name("_event_epoch_s"), SQLDataType.BIGINT));
        fields.add(DSL.field(DSL.name("_late"), SQLDataType.BOOLEAN));
        return fields;
    }

    /**
     * The row of {@code c}, in the order of {@link #fields}: its values (in contract order, as the
     * decoder gives them), then id, content hash, event time, source, offset, {@code ingestedAt},
     * event time in epoch seconds and {@code late}.
     */
    static List<Object> row(HotSink.Consumed c, OffsetDateTime ingestedAt, boolean late) {
        List<Object> row = new ArrayList<>(c.event().values().values());
        row.add(c.event().id());
        row.add(c.event().contentHash());
        row.add(LocalDateTime.ofInstant(c.event().eventTime(), ZoneOffset.UTC));
        row.add(c.at().source());
        row.add(c.at().offset());
        row.add(ingestedAt);
        row.add(c.event().eventTime().getEpochSecond());
        row.add(late);
        return row;
    }
}
