/**
 * The Deequ engine of the quality gates: the only package that imports Spark and Deequ
 * (ArchitectureTest). One SparkSession per JVM ({@link SparkSessions}).
 */
@NullMarked
package dev.sluice.quality.internal.deequ;

import org.jspecify.annotations.NullMarked;
