/**
 * Bronze ingest: landed-file readers (Parquet, CSV), the resumable item reader, and each database's bulk append path.
 */
@NullMarked
package dev.sluice.batch.bronze;

import org.jspecify.annotations.NullMarked;
