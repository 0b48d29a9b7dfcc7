/**
 * The layer-engine seam: {@link dev.sluice.engine.LayerEngine}, everything the job engine
 * asks of the data plane (layer tables, the Bronze sink and restart position, Silver/Gold partition
 * versions, publish and rollback, what the gates read), its values, and
 * {@link dev.sluice.engine.LayerEngines}, where a pipeline's engine is chosen. The jobs, gates
 * and backfills use this package only; each engine's implementation lives in a subpackage
 * ({@code warehouse}), used by nothing outside this package tree (ArchitectureTest).
 */
@NullMarked
package dev.sluice.engine;

import org.jspecify.annotations.NullMarked;
