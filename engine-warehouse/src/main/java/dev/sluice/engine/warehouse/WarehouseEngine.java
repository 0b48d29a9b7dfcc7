package dev.sluice.engine.warehouse;

import dev.sluice.control.version.PartitionVersions;
import dev.sluice.engine.BronzeColumns;
import dev.sluice.engine.BronzeSink;
import dev.sluice.engine.LoadPosition;
import dev.sluice.engine.BronzeRedaction;
import dev.sluice.engine.GateTarget;
import dev.sluice.engine.LayerEngine;
import dev.sluice.engine.TransformResult;
import dev.sluice.config.ColumnSpec;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import dev.sluice.quality.PartitionBatch;
import dev.sluice.quality.PartitionSource;
import dev.sluice.warehouse.ColumnTypes;
import dev.sluice.warehouse.Warehouse;
import dev.sluice.engine.QueryResult;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.ExecuteListener;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.DefaultExecuteListenerProvider;
import org.jspecify.annotations.Nullable;

/**
 * The warehouse engine: a pipeline's layers as tables in the warehouse database (ARCHITECTURE.md,
 * "Warehouse layout"). Bronze is {@code schema.table}, appended by the database's bulk path; a
 * Silver/Gold table keeps every kept version of each partition in {@code schema.table_versions},
 * and the view {@code schema.table} shows the published one ({@code sluice.published_partition}).
 * Every statement joins the caller's Spring transaction. Thread-safe.
 */
public final class WarehouseEngine implements LayerEngine {

    private final Warehouse warehouse;
    private final PipelineSpec spec;
    private final @Nullable Function<RunId, ExecuteListener> statements;
    private final BronzeLoads bronze;

    /**
     * @param statements the listener of a run's partition writes (a stop cancels the statement it
     *     saw start), or null for none
     */
    public WarehouseEngine(Warehouse warehouse, PipelineSpec spec, @Nullable Function<RunId, ExecuteListener> statements) {
        this.warehouse = warehouse;
        this.spec = spec;
        this.statements = statements;
        this.bronze = new BronzeLoads(warehouse);
    }

    /**
     * {@inheritDoc}
     *
     * @throws dev.sluice.core.SluiceException when another pipeline has written versions of one of this
     *     pipeline's Silver/Gold datasets in this warehouse
     */
    @Override
    public void createTables() {
        new PartitionVersions(warehouse.dsl()).refuseDatasetsOfOtherPipelines(spec);
        LayerTables.create(warehouse.dsl(), spec);
    }

    @Override
    public BronzeSink bronzeSink(BronzeColumns columns) {
        return bronze.sink(columns);
    }

    @Override
    public LoadPosition committed(DatasetRef bronzeTable, Partition partition, String source, RunId run) {
        return bronze.committed(bronzeTable, partition, source, run);
    }

    @Override
    public TransformResult write(TableSpec table, Partition partition, RunId run) {
        return new LayerTransform(statementsOf(run), spec, table).apply(partition, run);
    }

    @Override
    public long inputRows(TableSpec table, Partition partition) {
        return new LayerInput(warehouse.dsl(), spec, table).count(partition);
    }

    @Override
    public void publish(TableSpec table, Partition partition, int version, RunId run) {
        new PartitionPublisher(warehouse.dsl(), spec, table).publish(partition, version, run);
    }

    @Override
    public List<Integer> keptVersions(TableSpec table, Partition partition) {
        return new WarehouseVersions(warehouse.dsl()).kept(table.table(), partition);
    }

    /** {@inheritDoc} A version that has no rows kept but was written with some; a version of no rows is never pruned. */
    @Override
    public boolean pruned(TableSpec table, Partition partition, int version) {
        return new WarehouseVersions(warehouse.dsl()).pruned(table.table(), partition, version);
    }

    @Override
    public int rollback(TableSpec table, Partition partition, @Nullable Integer toVersion, String requestedBy, String reason) {
        return new WarehouseVersions(warehouse.dsl()).rollback(table, partition, toVersion, requestedBy, reason);
    }

    @Override
    public PartitionSource gateSource(TableSpec table, GateTarget target) {
        return new GateReads(warehouse, table).source(target);
    }

    @Override
    public PartitionBatch gateWave(TableSpec table, List<GateTarget> targets) {
        return new GateReads(warehouse, table).wave(targets);
    }

    @Override
    public void addBronzeColumn(TableSpec bronze, ColumnSpec column) {
        warehouse.dsl().alterTable(LayerTables.table(bronze.table())).addColumnIfNotExists(
                DSL.field(DSL.name(column.name()), ColumnTypes.of(column).nullable(true))).execute();
    }

    @Override
    public long redactBronze(TableSpec bronze, BronzeRedaction redaction, java.util.Set<String> partitions) {
        return new BronzeRedactor(warehouse.dsl()).redact(bronze, redaction, partitions);
    }

    @Override
    public QueryResult query(String sql, int maxRows) {
        return WarehouseSql.query(warehouse, sql, maxRows);
    }


    @Override
    public long purgeVersion(DSLContext tx, TableSpec table, String partition, int version, boolean dryRun) {
        Table<?> data = LayerTables.table(LayerTables.versions(table.table()));
        Condition rows = DSL.field(DSL.name("_partition")).eq(partition).and(DSL.field(DSL.name("_version")).eq(version));
        return dryRun ? tx.fetchCount(data, rows) : tx.deleteFrom(data).where(rows).execute();
    }

    @Override
    public long purgeBronzeLoad(DSLContext tx, TableSpec bronze, String partition, String source, String run, boolean dryRun) {
        Table<?> table = LayerTables.table(bronze.table());
        Condition rows = DSL.field(DSL.name("_partition")).eq(partition).and(DSL.field(DSL.name("_source")).eq(source))
                .and(DSL.field(DSL.name("_run_id")).eq(run));
        return dryRun ? tx.fetchCount(table, rows) : tx.deleteFrom(table).where(rows).execute();
    }

    /** {@inheritDoc} Nothing: the tables' storage is the database's. */
    @Override
    public Map<String, Long> purgeStorage(Instant cutoff, Instant orphansBefore, boolean dryRun) {
        return Map.of();
    }

    private PartitionVersions versions() {
        return new PartitionVersions(warehouse.dsl());
    }

    /** The warehouse's jOOQ context, its statements seen by the run's listener when there is one. */
    private DSLContext statementsOf(RunId run) {
        if (statements == null) {
            return warehouse.dsl();
        }
        return warehouse.dsl().configuration().deriveAppending(new DefaultExecuteListenerProvider(statements.apply(run))).dsl();
    }
}
