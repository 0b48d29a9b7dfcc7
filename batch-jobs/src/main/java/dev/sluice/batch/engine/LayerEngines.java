package dev.sluice.batch.engine;

import dev.sluice.batch.engine.warehouse.WarehouseEngine;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.RunId;
import dev.sluice.warehouse.Warehouse;
import java.util.function.Function;
import org.jooq.ExecuteListener;
import org.jspecify.annotations.Nullable;

/**
 * The one place where a pipeline's layer engine is chosen. Today every pipeline uses the warehouse
 * engine ({@link WarehouseEngine}): its layers are tables in the warehouse database. When the spec
 * gains its engine key ({@code engine: warehouse | lakehouse}, the lakehouse engine's issue), it is
 * read here, and a name no engine answers to is refused here, naming the known ones.
 *
 * <p>Immutable and thread-safe; {@link #withStatementListener} returns a new instance.
 */
public final class LayerEngines {

    private final Warehouse warehouse;
    private final @Nullable Function<RunId, ExecuteListener> statements;

    private LayerEngines(Warehouse warehouse, @Nullable Function<RunId, ExecuteListener> statements) {
        this.warehouse = warehouse;
        this.statements = statements;
    }

    /** The engines of pipelines whose control plane (and, for the warehouse engine, data) is {@code warehouse}. */
    public static LayerEngines on(Warehouse warehouse) {
        return new LayerEngines(warehouse, null);
    }

    /**
     * The same engines, the warehouse engine attaching {@code statements}' listener of a run to
     * the statements of that run's partition writes, so that a stop (timeout, cancel, shutdown)
     * can cancel the running one.
     */
    public LayerEngines withStatementListener(Function<RunId, ExecuteListener> statements) {
        return new LayerEngines(warehouse, statements);
    }

    /** The layer engine of {@code spec}'s pipeline. */
    public LayerEngine forPipeline(PipelineSpec spec) {
        return new WarehouseEngine(warehouse, spec, statements);
    }
}
