package dev.sluice.batch.warehouse;

import dev.sluice.config.ColumnSpec;
import dev.sluice.config.ColumnType;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.Layer;
import java.util.ArrayList;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.DataType;
import org.jooq.Field;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * Creates a pipeline's layer tables from its spec and contracts (jOOQ DDL, {@code IF NOT EXISTS}),
 * each with an index on {@code _partition}, and a reference snapshot ({@code partition: none})
 * with an index on its key.
 *
 * <p>Columns: a Bronze table has the contract's columns, then {@link #BRONZE_METADATA}; a
 * Silver/Gold table has its declared columns, then {@code _partition}, {@code _run_id}. Stateless
 * and thread-safe.
 */
public final class LayerTables {

    /** Ingest metadata columns of every Bronze table, in order. */
    public static final List<String> BRONZE_METADATA =
            List.of("_partition", "_run_id", "_source", "_source_pos", "_ingested_at", "_row_hash", "_parse_errors");
    /** Metadata columns of every Silver/Gold table, in order. */
    public static final List<String> REFINED_METADATA = List.of("_partition", "_run_id");

    private LayerTables() {
    }

    /** Creates every missing schema, table and index of {@code spec}. Idempotent. */
    public static void create(DSLContext dsl, PipelineSpec spec) {
        for (TableSpec t : spec.tables()) {
            idempotent(() -> dsl.createSchemaIfNotExists(DSL.name(t.table().schema())).execute());
            List<Field<?>> fields = new ArrayList<>();
            for (ColumnSpec c : t.columns()) {
                fields.add(DSL.field(DSL.name(c.name()), dataType(c.type())));
            }
            fields.addAll(metadataFields(t.layer()));
            Table<?> table = table(t.table());
            idempotent(() -> dsl.createTableIfNotExists(table).columns(fields).execute());
            idempotent(() -> dsl.createIndexIfNotExists(DSL.name(t.table().table() + "_partition_ix"))
                    .on(table, DSL.field(DSL.name("_partition"))).execute());
            if (!t.partitioned() && !t.key().isEmpty()) {
                // a reference snapshot is looked up by key (joins, quarantine rules)
                idempotent(() -> dsl.createIndexIfNotExists(DSL.name(t.table().table() + "_key_ix"))
                        .on(table, t.key().stream().map(k -> DSL.field(DSL.name(k))).toList()).execute());
            }
        }
    }

    /**
     * Runs an {@code IF NOT EXISTS} statement; when another process created the object between the
     * check and the creation ("already exists"), runs it once more, which then finds it.
     */
    private static void idempotent(Runnable ddl) {
        try {
            ddl.run();
        } catch (org.jooq.exception.DataAccessException e) {
            ddl.run();
        }
    }

    /** The jOOQ table of a dataset. */
    public static Table<?> table(DatasetRef ref) {
        return DSL.table(DSL.name(ref.schema(), ref.table()));
    }

    /** The jOOQ type of a column type. */
    public static DataType<?> dataType(ColumnType type) {
        return switch (type) {
            case STRING -> SQLDataType.VARCHAR;
            case INT -> SQLDataType.INTEGER;
            case LONG -> SQLDataType.BIGINT;
            case DOUBLE -> SQLDataType.DOUBLE;
            case FLOAT -> SQLDataType.REAL;
            case BOOLEAN -> SQLDataType.BOOLEAN;
            case DATE -> SQLDataType.LOCALDATE;
            case TIMESTAMP -> SQLDataType.LOCALDATETIME(6);
        };
    }

    private static List<Field<?>> metadataFields(Layer layer) {
        List<Field<?>> f = new ArrayList<>();
        f.add(DSL.field(DSL.name("_partition"), SQLDataType.VARCHAR(40).notNull()));
        f.add(DSL.field(DSL.name("_run_id"), SQLDataType.VARCHAR(36).notNull()));
        if (layer == Layer.BRONZE) {
            f.add(DSL.field(DSL.name("_source"), SQLDataType.VARCHAR(1000).notNull()));
            f.add(DSL.field(DSL.name("_source_pos"), SQLDataType.BIGINT.notNull()));
            f.add(DSL.field(DSL.name("_ingested_at"), SQLDataType.OFFSETDATETIME.notNull()));
            f.add(DSL.field(DSL.name("_row_hash"), SQLDataType.CHAR(64).notNull()));
            f.add(DSL.field(DSL.name("_parse_errors"), SQLDataType.VARCHAR.nullable(true)));
        }
        return f;
    }
}
