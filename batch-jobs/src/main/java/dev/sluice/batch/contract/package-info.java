/**
 * Schema contracts at the landing boundary: each landed file's columns compared with its contract
 * by name before anything is written, drift recorded in {@code sluice.schema_drift}, added columns
 * handled by the contract's drift policy.
 */
@NullMarked
package dev.sluice.batch.contract;

import org.jspecify.annotations.NullMarked;
