/**
 * Quality gates in the medallion job: the gate step after each table with checks, and
 * {@code sluice.quality_results}.
 */
@NullMarked
package dev.sluice.batch.gate;

import org.jspecify.annotations.NullMarked;
