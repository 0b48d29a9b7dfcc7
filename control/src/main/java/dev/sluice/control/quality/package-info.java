/**
 * Quality gate results and metric history ({@code sluice.quality_results}): what each check found per partition and run.
 */
@NullMarked
package dev.sluice.control.quality;

import org.jspecify.annotations.NullMarked;
