/**
 * The warehouse: its connection pool, the Flyway-migrated {@code sluice} metadata schema and the
 * jOOQ context, shared by the batch path and the hot path (no Spark, no Kafka here).
 */
@NullMarked
package dev.sluice.warehouse;

import org.jspecify.annotations.NullMarked;
