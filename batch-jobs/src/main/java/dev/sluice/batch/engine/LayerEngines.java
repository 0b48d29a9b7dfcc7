package dev.sluice.batch.engine;

import dev.sluice.batch.engine.lakehouse.LakehouseEngine;
import dev.sluice.batch.engine.warehouse.WarehouseEngine;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.RunId;
import dev.sluice.warehouse.Warehouse;
import java.util.function.Function;
import org.jooq.ExecuteListener;
import org.jspecify.annotations.Nullable;

/**
 * The one place where a pipeline's layer engine is chosen, from the spec's {@code engine:}: the
 * warehouse engine ({@link WarehouseEngine}, the default: tables in the warehouse database) or the
 * lakehouse engine ({@link LakehouseEngine}: Iceberg tables built by Spark SQL). The statement
 * listener reaches the warehouse engine only (a stop cancels a lakehouse write between its Spark jobs).
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
        if (spec.engine().lakehouse()) {
            return new LakehouseEngine(warehouse, spec);
        }
        return new WarehouseEngine(warehouse, spec, statements);
    }
}
