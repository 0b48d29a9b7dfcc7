/**
 * The control plane's record of Silver/Gold partitions, whatever engine holds their rows: which
 * versions were written and which is published ({@link dev.sluice.batch.engine.control.PartitionVersions}),
 * what a version was built from ({@link dev.sluice.batch.engine.control.SnapshotFingerprint}), and
 * the quarantine rules a contract's allowed values imply ({@link dev.sluice.batch.engine.control.ContractRules}).
 * Tables in the warehouse database only.
 */
@NullMarked
package dev.sluice.batch.engine.control;

import org.jspecify.annotations.NullMarked;
