package dev.sluice.engine.lakehouse;

import dev.sluice.config.PipelineSpec;
import dev.sluice.core.RunId;
import dev.sluice.engine.EngineProvider;
import dev.sluice.engine.LayerEngine;
import dev.sluice.warehouse.Warehouse;
import java.util.function.Function;
import org.jooq.ExecuteListener;
import org.jspecify.annotations.Nullable;

/**
 * The lakehouse engine ({@code engine: lakehouse}): Apache Iceberg tables in the warehouse database's JDBC catalog, built by Spark SQL; a stop cancels a write between its Spark jobs, so the statement listener is not used. Registered in
 * {@code META-INF/services/dev.sluice.engine.EngineProvider}. Stateless and thread-safe.
 */
public final class LakehouseEngineProvider implements EngineProvider {

    @Override
    public String name() {
        return "lakehouse";
    }

    @Override
    public LayerEngine open(Warehouse warehouse, PipelineSpec spec, @Nullable Function<RunId, ExecuteListener> statements) {
        return new LakehouseEngine(warehouse, spec);
    }
}
