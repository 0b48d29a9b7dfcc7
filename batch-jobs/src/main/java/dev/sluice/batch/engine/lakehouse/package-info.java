/**
 * The lakehouse engine: a pipeline's layers as Apache Iceberg tables built by Spark SQL
 * ({@code engine: lakehouse}). {@link dev.sluice.batch.engine.lakehouse.SparkDialect} turns the
 * shared SQL subset into Spark's spelling; {@link dev.sluice.batch.engine.lakehouse.SparkSqlCheck}
 * parses a lakehouse pipeline's SQL with Spark's parser for {@code sluice validate}.
 */
@NullMarked
package dev.sluice.batch.engine.lakehouse;

import org.jspecify.annotations.NullMarked;
