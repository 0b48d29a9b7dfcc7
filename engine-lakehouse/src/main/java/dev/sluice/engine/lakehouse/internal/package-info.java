/**
 * The lakehouse engine's implementation: the one package of batch-jobs that uses Spark (and
 * Iceberg) directly (ArchitectureTest). {@link dev.sluice.engine.lakehouse.internal.SparkParser}
 * runs Spark's SQL parser for {@code sluice validate}.
 */
@NullMarked
package dev.sluice.engine.lakehouse.internal;

import org.jspecify.annotations.NullMarked;
