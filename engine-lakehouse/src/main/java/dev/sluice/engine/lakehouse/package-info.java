/**
 * The lakehouse engine ({@code engine: lakehouse}): a pipeline's layers as Apache Iceberg tables
 * in the warehouse database's Iceberg catalog, Bronze appended with Iceberg's Java data API, Silver
 * and Gold built by Spark SQL. {@link dev.sluice.engine.lakehouse.LakehouseEngine} is reached
 * only through {@link dev.sluice.engine.LayerEngine}.
 * {@link dev.sluice.engine.lakehouse.SparkDialect} turns the shared SQL subset into Spark's
 * spelling; {@link dev.sluice.engine.lakehouse.SparkSqlCheck} parses a lakehouse pipeline's
 * SQL with Spark's parser for {@code sluice validate}. docs/engines.md is the user's guide.
 */
@NullMarked
package dev.sluice.engine.lakehouse;

import org.jspecify.annotations.NullMarked;
