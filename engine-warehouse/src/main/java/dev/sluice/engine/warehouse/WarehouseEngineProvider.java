package dev.sluice.engine.warehouse;

import dev.sluice.config.PipelineSpec;
import dev.sluice.core.RunId;
import dev.sluice.engine.EngineProvider;
import dev.sluice.engine.LayerEngine;
import dev.sluice.warehouse.Warehouse;
import java.util.function.Function;
import org.jooq.ExecuteListener;
import org.jspecify.annotations.Nullable;

/**
 * The warehouse engine ({@code engine: warehouse}): tables in the warehouse database, set-based SQL through jOOQ. Registered in
 * {@code META-INF/services/dev.sluice.engine.EngineProvider}. Stateless and thread-safe.
 */
public final class WarehouseEngineProvider implements EngineProvider {

    @Override
    public String name() {
        return "warehouse";
    }

    @Override
    public LayerEngine open(Warehouse warehouse, PipelineSpec spec, @Nullable Function<RunId, ExecuteListener> statements) {
        return new WarehouseEngine(warehouse, spec, statements);
    }
}
