/**
 * Bronze ingest: landed-file readers (Parquet, CSV, JSON), the resumable item reader and writer, the
 * landed-file records, and what a layer engine's Bronze side is given ({@link dev.sluice.engine.BronzeSink},
 * {@link dev.sluice.engine.BronzeColumns}, {@link dev.sluice.batch.bronze.LoadPositions}); each
 * engine's bulk append path is its own ({@code dev.sluice.engine}).
 */
@NullMarked
package dev.sluice.batch.bronze;

import org.jspecify.annotations.NullMarked;
