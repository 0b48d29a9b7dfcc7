/**
 * The warehouse engine: a pipeline's layers as tables in the warehouse database (H2 or
 * PostgreSQL), built with set-based SQL through jOOQ in the caller's transaction: Bronze appended
 * by the database's bulk path (PostgreSQL {@code COPY}, else JDBC batches), Silver/Gold partition
 * versions with quarantine and PII projection, their publication and rollback, and the SELECTs the
 * gates read. {@link dev.sluice.engine.warehouse.WarehouseEngine} is its one public class,
 * reached only through {@link dev.sluice.engine.LayerEngine}.
 */
@NullMarked
package dev.sluice.engine.warehouse;

import org.jspecify.annotations.NullMarked;
