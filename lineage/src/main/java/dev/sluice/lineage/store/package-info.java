/** Sluice's lineage store in the warehouse and the lineage queries over it. */
@NullMarked
package dev.sluice.lineage.store;

import org.jspecify.annotations.NullMarked;
