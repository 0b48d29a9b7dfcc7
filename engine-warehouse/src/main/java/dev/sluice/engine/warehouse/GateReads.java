package dev.sluice.engine.warehouse;

import dev.sluice.control.landing.LandedFileRepository;
import dev.sluice.engine.GateTarget;
import dev.sluice.config.MetadataColumns;
import dev.sluice.config.TableSpec;
import dev.sluice.core.Layer;
import dev.sluice.quality.PartitionBatch;
import dev.sluice.quality.PartitionSource;
import dev.sluice.warehouse.Warehouse;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

/**
 * What the gates of one table read in the warehouse: SELECTs with their values inlined (Spark runs
 * them over JDBC) of exactly the rows a gate judges. Bronze: the partition's current load (the
 * current files' (source, run) as literals, no landed-file lookup per row); Silver/Gold: the
 * version the run wrote, from {@code schema.table_versions}, or the published rows from the view.
 * Thread-safe.
 */
final class GateReads {

    private final Warehouse warehouse;
    private final TableSpec table;

    GateReads(Warehouse warehouse, TableSpec table) {
        this.warehouse = warehouse;
        this.table = table;
    }

    /** One partition: {@link #columns()} from {@link #from} where {@link #condition}. */
    PartitionSource.JdbcQuery source(GateTarget target) {
        DSLContext dsl = warehouse.dsl();
        return new PartitionSource.JdbcQuery(warehouse.jdbcUrl(), warehouse.spec().user(), warehouse.spec().password(),
                dsl.renderInlined(dsl.select(columns()).from(from(target)).where(condition(target))), rowIdColumn(),
                nominalEnd(target));
    }

    /**
     * Many partitions from one derived table of the judged columns (and {@code _version}, which the
     * conditions use): Spark reads the schema of what it is given, and Bronze also holds types it
     * cannot read ({@code _ingested_at}).
     */
    PartitionBatch.JdbcQueries wave(List<GateTarget> targets) {
        DSLContext dsl = warehouse.dsl();
        List<Field<?>> read = new ArrayList<>(columns());
        if (table.layer() != Layer.BRONZE && read.stream().noneMatch(f -> f.getName().equals("_version"))) {
            read.add(DSL.field(DSL.name("b", "_version")));
        }
        String from = "(" + dsl.renderInlined(dsl.select(read).from(from(targets.get(0)))) + ") b";
        return new PartitionBatch.JdbcQueries(warehouse.jdbcUrl(), warehouse.spec().user(), warehouse.spec().password(),
                from, columns().stream().map(Field::getName).toList(), "_partition", rowIdColumn(),
                targets.stream().map(t -> new PartitionBatch.Member(t.partition(), dsl.renderInlined(condition(t)), nominalEnd(t)))
                        .toList());
    }

    private @Nullable String rowIdColumn() {
        return table.layer() == Layer.BRONZE ? "_source_pos" : null;
    }

    private static @Nullable LocalDateTime nominalEnd(GateTarget target) {
        return target.partition().nominalEnd();
    }

    /** The table judged, as {@code b}: Bronze, the versions of a Silver/Gold table, or its published rows. */
    private Table<?> from(GateTarget target) {
        if (table.layer() != Layer.BRONZE && target.version() != null) {
            return LayerTables.table(LayerTables.versions(table.table())).as("b");
        }
        return LayerTables.table(table.table()).as("b");
    }

    /**
     * The rows {@code target} judges: Bronze, the partition's current load; Silver/Gold, the version
     * the run wrote, or the published rows.
     */
    private Condition condition(GateTarget target) {
        Condition where = DSL.field(DSL.name("b", "_partition"), String.class).eq(DSL.inline(target.partition().key()));
        if (table.layer() == Layer.BRONZE) {
            // the current files' (source, run) as literals: no landed-file lookup per row
            return where.and(new LandedFileRepository(warehouse.dsl()).currentLoadOf(table.table().qualifiedName(), target.partition(), "b"));
        }
        return target.version() == null ? where : where.and(DSL.field(DSL.name("b", "_version")).eq(DSL.inline(target.version())));
    }

    /**
     * The columns judged: the table's declared columns and the metadata columns checks may name
     * ({@link MetadataColumns}; {@code _partition} tells partitions apart, {@code _source_pos} is
     * the Bronze row id of unexpected values).
     */
    private List<Field<?>> columns() {
        List<Field<?>> columns = new ArrayList<>();
        table.columns().forEach(c -> columns.add(DSL.field(DSL.name("b", c.name()))));
        (table.layer() == Layer.BRONZE ? MetadataColumns.BRONZE : MetadataColumns.REFINED)
                .keySet().forEach(m -> columns.add(DSL.field(DSL.name("b", m))));
        return columns;
    }
}
