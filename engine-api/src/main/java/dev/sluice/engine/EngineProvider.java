package dev.sluice.engine;

import dev.sluice.config.PipelineSpec;
import dev.sluice.config.SpecProblem;
import dev.sluice.core.RunId;
import dev.sluice.warehouse.Warehouse;
import java.util.List;
import java.util.function.Function;
import org.jooq.ExecuteListener;
import org.jspecify.annotations.Nullable;

/**
 * A layer engine as a plug-in: found by {@link java.util.ServiceLoader} (a
 * {@code META-INF/services/dev.sluice.engine.EngineProvider} entry in the engine's module) by the
 * name a spec gives in {@code engine:}. {@link LayerEngines} is the one caller.
 *
 * <p>Implementations have a public no-argument constructor, hold no state and are thread-safe.
 */
public interface EngineProvider {

    /** The spec's spelling of this engine ({@code engine: warehouse}, {@code engine: lakehouse}). */
    String name();

    /**
     * The engine of one pipeline: one instance serves a run (or a command) and is thread-safe.
     *
     * @param warehouse the control plane (and, for an engine that keeps its tables there, the data)
     * @param statements the run's statement listener for a stop to cancel a running statement;
     *     null when nothing listens. An engine whose writes are not JDBC statements ignores it.
     */
    LayerEngine open(Warehouse warehouse, PipelineSpec spec, @Nullable Function<RunId, ExecuteListener> statements);

    /**
     * What {@code sluice validate} adds for a pipeline of this engine beyond the spec's own checks
     * (the lakehouse engine: its SQL parsed by Spark's parser). Opens nothing.
     *
     * @param spec a valid spec of this engine
     * @return the problems found, in spec order; empty when none (or when the engine adds no check)
     */
    default List<SpecProblem> validate(PipelineSpec spec) {
        return List.of();
    }

    /** How this engine describes {@code spec}'s pipeline in the design document and the quickstart's hints. */
    EngineDescription describe(PipelineSpec spec);
}
