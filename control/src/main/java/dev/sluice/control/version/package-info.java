/**
 * The control plane's record of Silver/Gold partitions, whatever engine holds their rows: which versions were written and which is published ({@link dev.sluice.control.version.PartitionVersions}), rollbacks ({@link dev.sluice.control.version.Rollback}), and what a version was built from ({@link dev.sluice.control.version.SnapshotFingerprint}). Tables in the warehouse database only.
 */
@NullMarked
package dev.sluice.control.version;

import org.jspecify.annotations.NullMarked;
