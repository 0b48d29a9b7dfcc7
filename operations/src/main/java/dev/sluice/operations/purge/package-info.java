/** Housekeeping: removing superseded versions, loads and old metadata outside the backfill window. */
@org.jspecify.annotations.NullMarked
package dev.sluice.operations.purge;
