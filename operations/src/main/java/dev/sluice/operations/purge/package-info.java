/** Housekeeping: removing superseded versions, loads and old metadata outside the backfill window. */
@NullMarked
package dev.sluice.operations.purge;

import org.jspecify.annotations.NullMarked;
