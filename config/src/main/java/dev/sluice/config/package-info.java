/**
 * The pipeline spec: records that model it, YAML loading with {@code ${ENV:-default}}
 * interpolation, and validation that reports every problem at once.
 */
@NullMarked
package dev.sluice.config;

import org.jspecify.annotations.NullMarked;
