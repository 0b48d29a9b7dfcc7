/**
 * Silver and Gold: set-based SQL per partition (jOOQ), quarantine, partition versions.
 */
@NullMarked
package dev.sluice.batch.refine;

import org.jspecify.annotations.NullMarked;
