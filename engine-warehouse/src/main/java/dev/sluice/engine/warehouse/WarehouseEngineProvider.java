package dev.sluice.engine.warehouse;

import dev.sluice.config.PipelineSpec;
import dev.sluice.core.RunId;
import dev.sluice.engine.EngineDescription;
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

    @Override
    public EngineDescription describe(PipelineSpec spec) {
        int keep = spec.keepVersions();
        return new EngineDescription(
                "Layer engine: **warehouse**. Bronze, Silver and Gold are tables of the warehouse database, built by its SQL"
                        + " (docs/engines.md).",
                "Silver and Gold rows carry `_partition` and `_version`; a run writes a new version and publishes it in one"
                        + " transaction after its gate; " + keep + " version" + (keep == 1 ? " is" : "s are")
                        + " kept per partition for rollback.",
                "Each boundary's gate judges a partition before its new version is published.",
                """
                Engine: warehouse, the shipped default. Bronze, Silver and Gold are tables of the warehouse database,
                built by set-based SQL through JDBC: on one machine it runs this quickstart faster than the lakehouse
                engine, which runs Spark jobs for every table of every wave of days and commits Iceberg snapshots for
                every table of every day (docs/benchmarks.md, the quickstart rows).
                """,
                "_lake", false, true);
    }
}
