/**
 * The batch side of {@code sluice quarantine reprocess}: partitions with OPEN quarantined rows are
 * re-run from Bronze under the current spec.
 */
@NullMarked
package dev.sluice.batch.quarantine;

import org.jspecify.annotations.NullMarked;
