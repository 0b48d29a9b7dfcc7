/**
 * Backfill waves: the steps of partition jobs running at once that are carried out once for all of
 * them (a lakehouse table's write, a gate's evaluation), and how a job's steps wait for each other.
 */
@NullMarked
package dev.sluice.batch.wave;

import org.jspecify.annotations.NullMarked;
