package dev.sluice.engine.warehouse;

import dev.sluice.engine.BronzeColumns;
import dev.sluice.engine.BronzeSink;
import dev.sluice.engine.LoadPosition;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import dev.sluice.warehouse.Warehouse;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * Bronze in the warehouse: the database's bulk append path, and what a Bronze table holds of one
 * load. Thread-safe.
 */
final class BronzeLoads {

    private final Warehouse warehouse;

    BronzeLoads(Warehouse warehouse) {
        this.warehouse = warehouse;
    }

    /** PostgreSQL's {@code COPY}, else JDBC batches of a prepared INSERT (H2). */
    BronzeSink sink(BronzeColumns columns) {
        return warehouse.isPostgres()
                ? new PostgresCopyBronzeSink(warehouse.dataSource(), columns)
                : new JdbcBatchBronzeSink(warehouse.dataSource(), columns);
    }

    /**
     * The rows committed with {@code _partition} = {@code partition}, {@code _source} =
     * {@code source} and {@code _run_id} = {@code run}, and the highest {@code _source_pos} among
     * them: one aggregate query on the partition's index, in the caller's transaction when there
     * is one.
     */
    LoadPosition committed(DatasetRef bronzeTable, Partition partition, String source, RunId run) {
        Field<Long> pos = DSL.field(DSL.name("_source_pos"), Long.class);
        var r = warehouse.dsl().select(DSL.count(), DSL.max(pos)).from(DSL.table(DSL.name(bronzeTable.schema(), bronzeTable.table())))
                .where(DSL.field(DSL.name("_partition"), String.class).eq(partition.key()),
                        DSL.field(DSL.name("_source"), String.class).eq(source),
                        DSL.field(DSL.name("_run_id"), String.class).eq(run.toString()))
                .fetchOne();
        return r == null || r.value2() == null ? LoadPosition.NONE : new LoadPosition(r.value1(), r.value2());
    }
}
