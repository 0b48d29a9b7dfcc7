/**
 * The sample data: fetched by name with npm pack, verified by SHA-256, laid out as a landing zone.
 */
@NullMarked
package dev.sluice.sampledata;

import org.jspecify.annotations.NullMarked;
