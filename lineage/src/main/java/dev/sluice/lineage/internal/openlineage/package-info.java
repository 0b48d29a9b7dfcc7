/**
 * The OpenLineage engine of lineage emission: the only package that imports the OpenLineage
 * client (ArchitectureTest).
 */
@NullMarked
package dev.sluice.lineage.internal.openlineage;

import org.jspecify.annotations.NullMarked;
