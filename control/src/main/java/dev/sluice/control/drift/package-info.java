/**
 * Schema drift of sources ({@code sluice.schema_drift}): what a file's or event's schema added, widened or lost against its contract, and what the policy did.
 */
@NullMarked
package dev.sluice.control.drift;

import org.jspecify.annotations.NullMarked;
