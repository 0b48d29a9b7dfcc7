/**
 * The warehouse engine: a pipeline's layers as tables in the warehouse database (H2 or
 * PostgreSQL), built with set-based SQL through jOOQ in the caller's transaction. Reached only
 * through {@link dev.sluice.batch.engine.LayerEngine}.
 */
@NullMarked
package dev.sluice.batch.engine.warehouse;

import org.jspecify.annotations.NullMarked;
