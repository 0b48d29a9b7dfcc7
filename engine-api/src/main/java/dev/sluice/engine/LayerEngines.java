package dev.sluice.engine;

import dev.sluice.config.PipelineSpec;
import dev.sluice.core.RunId;
import dev.sluice.core.SluiceException;
import dev.sluice.warehouse.Warehouse;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.function.Function;
import org.jooq.ExecuteListener;
import org.jspecify.annotations.Nullable;

/**
 * The one place where a pipeline's layer engine is found: the {@link EngineProvider} on the class
 * path whose {@link EngineProvider#name name} is the spec's {@code engine:} ({@code warehouse}, the
 * default, or {@code lakehouse}). The engines are modules of their own ({@code engine-warehouse},
 * {@code engine-lakehouse}); the application brings them in, the job engine sees this package only.
 *
 * <p>Immutable and thread-safe; {@link #withStatementListener} returns a new instance.
 */
public final class LayerEngines {

    /** The providers on the class path by name, loaded once. */
    private static final Map<String, EngineProvider> PROVIDERS = load();

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

    /**
     * The layer engine of {@code spec}'s pipeline: a new instance, to be kept for the run.
     *
     * @throws SluiceException when no engine of the spec's name is on the class path (a packaging error)
     */
    public LayerEngine forPipeline(PipelineSpec spec) {
        return provider(spec).open(warehouse, spec, statements);
    }

    /**
     * The provider of {@code spec}'s engine.
     *
     * @throws SluiceException when no engine of the spec's name is on the class path (a packaging error)
     */
    public static EngineProvider provider(PipelineSpec spec) {
        String name = spec.engine().kind().specName();
        EngineProvider provider = PROVIDERS.get(name);
        if (provider == null) {
            throw new SluiceException("pipeline " + spec.name() + ": engine '" + name + "' is not on the class path (engines found: "
                    + String.join(", ", PROVIDERS.keySet()) + "); add the module sluice-engine-" + name);
        }
        return provider;
    }

    private static Map<String, EngineProvider> load() {
        Map<String, EngineProvider> found = new TreeMap<>();
        for (EngineProvider p : ServiceLoader.load(EngineProvider.class, LayerEngines.class.getClassLoader())) {
            EngineProvider before = found.putIfAbsent(p.name(), p);
            if (before != null && before.getClass() != p.getClass()) {
                throw new IllegalStateException("two engines named " + p.name() + ": " + before.getClass().getName() + " and "
                        + p.getClass().getName());
            }
        }
        return Map.copyOf(found);
    }
}
