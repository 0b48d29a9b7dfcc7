/**
 * The JVM's Spark: the one class that builds a SparkSession ({@link dev.sluice.spark.SparkSessions})
 * and the lakehouse catalog's coordinates ({@link dev.sluice.spark.LakehouseCatalog}). Only this
 * package, the quality module's {@code internal.deequ} and the lakehouse engine import Spark
 * (ArchitectureTest).
 */
@NullMarked
package dev.sluice.spark;

import org.jspecify.annotations.NullMarked;
