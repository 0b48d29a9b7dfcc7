/**
 * Backfills ({@code sluice.backfill}, {@code sluice.backfill_partition}): one running backfill per pipeline, who owns it and what it planned.
 */
@NullMarked
package dev.sluice.control.backfill;

import org.jspecify.annotations.NullMarked;
