/**
 * Value types every Sluice module shares: partitions, run ids, dataset references, layers and the
 * exception roots. JDK only.
 */
@NullMarked
package dev.sluice.core;

import org.jspecify.annotations.NullMarked;
