/**
 * The medallion job of a pipeline partition on Spring Batch: identity (pipeline, partition, attempt), restarts, run records and summaries.
 */
@NullMarked
package dev.sluice.batch.job;

import org.jspecify.annotations.NullMarked;
