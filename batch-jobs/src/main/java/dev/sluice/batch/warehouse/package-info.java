/**
 * The layer tables of the warehouse: their DDL from the spec, versioned views, and checksums.
 */
@NullMarked
package dev.sluice.batch.warehouse;

import org.jspecify.annotations.NullMarked;
