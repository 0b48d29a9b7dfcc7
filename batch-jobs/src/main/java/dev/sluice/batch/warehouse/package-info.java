/**
 * The warehouse: connection pool, Flyway-migrated metadata, jOOQ context, layer-table DDL and checksums.
 */
@NullMarked
package dev.sluice.batch.warehouse;

import org.jspecify.annotations.NullMarked;
