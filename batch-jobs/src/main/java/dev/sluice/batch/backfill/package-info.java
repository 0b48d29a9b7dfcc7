/**
 * Backfills: re-running a range of a pipeline's partitions as one run of its own, planned, in
 * parallel, resumable, with the quality gates of many partitions judged in one pass.
 */
@NullMarked
package dev.sluice.batch.backfill;

import org.jspecify.annotations.NullMarked;
