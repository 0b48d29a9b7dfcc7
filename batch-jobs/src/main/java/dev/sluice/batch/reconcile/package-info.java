/**
 * Reconciliation of a hot path's live windows with the batch mart after each batch load, recorded
 * in {@code sluice.quality_results}.
 */
@NullMarked
package dev.sluice.batch.reconcile;

import org.jspecify.annotations.NullMarked;
