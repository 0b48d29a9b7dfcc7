/** Freshness: time since last update of each dataset against its update interval and SLA. */
@NullMarked
package dev.sluice.operations.freshness;

import org.jspecify.annotations.NullMarked;
