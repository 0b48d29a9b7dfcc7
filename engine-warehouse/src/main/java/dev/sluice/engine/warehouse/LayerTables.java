package dev.sluice.engine.warehouse;


import dev.sluice.config.ColumnSpec;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.Layer;
import dev.sluice.engine.LayerColumns;
import dev.sluice.warehouse.ColumnTypes;
import dev.sluice.warehouse.meta.PublishedPartitionTable;
import java.util.ArrayList;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.DataType;
import org.jooq.Field;
import org.jooq.Table;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * Creates a pipeline's layer tables from its spec and contracts (jOOQ DDL, {@code IF NOT EXISTS}),
 * each with an index on {@code _partition}, and a reference snapshot ({@code partition: none})
 * with an index on its key.
 *
 * <p>Columns: a Bronze table has the contract's columns, then {@link LayerColumns#BRONZE_METADATA}; a
 * Silver/Gold table has its declared columns, then {@link LayerColumns#REFINED_METADATA}. A Silver/Gold table
 * keeps every kept version of each partition in {@code schema.table_versions}; the view
 * {@code schema.table} shows the published one.
 *
 * <p>Thread-safe: creations in one JVM run one at a time. H2 does not serialise concurrent DDL on
 * its metadata (two sessions' {@code CREATE SCHEMA IF NOT EXISTS} failed with "object already
 * exists", two {@code CREATE OR REPLACE VIEW} with "Row not found in primary index SYS_DATA";
 * {@code LayerTablesConcurrencyIT}), and the partition runs of a backfill wave all prepare at once.
 * Between processes a statement that finds the object created meanwhile is run again.
 */
public final class LayerTables {


    /** Creations in this JVM, one at a time (see the class comment). */
    private static final Object DDL = new Object();
    /** Runs of one DDL statement before its error is thrown: the first, then retries. */
    private static final int ATTEMPTS = 3;

    private LayerTables() {
    }

    /**
     * Creates every missing schema, table and index of {@code spec}, and (re)creates the views of
     * the published versions. Idempotent.
     *
     * @throws DataAccessException when a statement fails {@value #ATTEMPTS} times
     */
    public static void create(DSLContext dsl, PipelineSpec spec) {
        synchronized (DDL) {
            createAll(dsl, spec);
        }
    }

    private static void createAll(DSLContext dsl, PipelineSpec spec) {
        for (TableSpec t : spec.tables()) {
            idempotent(() -> dsl.createSchemaIfNotExists(DSL.name(t.table().schema())).execute());
            List<Field<?>> fields = fields(t);
            boolean versioned = t.layer() != Layer.BRONZE;
            DatasetRef physical = versioned ? versions(t.table()) : t.table();
            Table<?> table = table(physical);
            idempotent(() -> dsl.createTableIfNotExists(table).columns(fields).execute());
            List<Field<?>> partitionIndex = versioned
                    ? List.of(DSL.field(DSL.name("_partition")), DSL.field(DSL.name("_version")))
                    : List.of(DSL.field(DSL.name("_partition")));
            idempotent(() -> dsl.createIndexIfNotExists(DSL.name(physical.table() + "_partition_ix"))
                    .on(table, partitionIndex).execute());
            if (!t.partitioned() && !t.key().isEmpty()) {
                // a reference snapshot is looked up by key (joins, quarantine rules)
                idempotent(() -> dsl.createIndexIfNotExists(DSL.name(physical.table() + "_key_ix"))
                        .on(table, t.key().stream().map(k -> DSL.field(DSL.name(k))).toList()).execute());
            }
            if (versioned) {
                createCurrentView(dsl, t, fields);
            }
        }
    }

    /**
     * Runs an {@code IF NOT EXISTS} statement; when another process created the object between the
     * check and the creation ("already exists"), runs it again, which then finds it.
     */
    private static void idempotent(Runnable ddl) {
        for (int attempt = 1; ; attempt++) {
            try {
                ddl.run();
                return;
            } catch (DataAccessException e) {
                if (attempt == ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    /**
     * The view {@code schema.table} over {@code schema.table_versions}: the rows of each
     * partition's published version ({@code sluice.published_partition}). What every reader sees,
     * the layer SQL included, except a run reading its own partition of its input: it reads the
     * versions table at the version published as its step starts ({@code LayerInput}).
     */
    private static void createCurrentView(DSLContext dsl, TableSpec t, List<Field<?>> fields) {
        Table<?> v = table(versions(t.table())).as("v");
        Table<?> p = PublishedPartitionTable.TABLE.as("p");
        List<Field<?>> columns = fields.stream().<Field<?>>map(f -> DSL.field(DSL.name("v", f.getName()))).toList();
        idempotent(() -> dsl.createOrReplaceView(table(t.table())).as(DSL.select(columns).from(v).join(p).on(
                DSL.field(DSL.name("p", "dataset")).eq(DSL.inline(t.table().qualifiedName())),
                DSL.field(DSL.name("p", "partition_key")).eq(DSL.field(DSL.name("v", "_partition"))),
                DSL.field(DSL.name("p", "version")).eq(DSL.field(DSL.name("v", "_version"))))).execute());
    }

    /**
     * The columns of a Silver/Gold table's view ({@link #createCurrentView}), unqualified: the
     * spec's columns in order, then {@code _partition}, {@code _run_id}, {@code _version}. The
     * versions table may hold more (a column the spec no longer declares is not dropped).
     */
    public static List<org.jooq.Name> viewColumns(TableSpec t) {
        return fields(t).stream().map(Field::getUnqualifiedName).toList();
    }

    /** A table's columns, typed: the spec's in order, then the layer's metadata columns. */
    private static List<Field<?>> fields(TableSpec t) {
        List<Field<?>> fields = new ArrayList<>();
        for (ColumnSpec c : t.columns()) {
            fields.add(DSL.field(DSL.name(c.name()), ColumnTypes.of(c)));
        }
        fields.addAll(metadataFields(t.layer()));
        return fields;
    }

    /** Where the versions of a Silver/Gold table's partitions are kept: {@code schema.table_versions}. */
    public static DatasetRef versions(DatasetRef ref) {
        return new DatasetRef(ref.schema(), ref.table() + "_versions");
    }

    /** The jOOQ table of a dataset. */
    public static Table<?> table(DatasetRef ref) {
        return DSL.table(DSL.name(ref.schema(), ref.table()));
    }

    private static List<Field<?>> metadataFields(Layer layer) {
        List<Field<?>> f = new ArrayList<>();
        f.add(DSL.field(DSL.name("_partition"), SQLDataType.VARCHAR(40).notNull()));
        f.add(DSL.field(DSL.name("_run_id"), SQLDataType.VARCHAR(36).notNull()));
        if (layer != Layer.BRONZE) {
            f.add(DSL.field(DSL.name("_version"), SQLDataType.INTEGER.notNull()));
        }
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
