/**
 * Lineage of every run. This package is the API; the OpenLineage client arrives with the lineage
 * issue in {@code dev.sluice.lineage.internal.openlineage}, the only package that may import it.
 */
@NullMarked
package dev.sluice.lineage;

import org.jspecify.annotations.NullMarked;
