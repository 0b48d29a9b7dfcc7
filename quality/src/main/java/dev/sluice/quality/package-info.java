/**
 * Quality gates at the three boundaries of a medallion job (source after Bronze, transform after
 * Silver, sink after Gold). This package is the API; the Deequ engine arrives with the quality-gates
 * issue in {@code dev.sluice.quality.internal.deequ}, the only package that may import Spark/Deequ.
 */
@NullMarked
package dev.sluice.quality;

import org.jspecify.annotations.NullMarked;
