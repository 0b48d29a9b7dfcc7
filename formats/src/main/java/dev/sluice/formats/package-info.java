/**
 * Source file formats below the record level, free of Sluice's own types: Parquet files on local
 * paths without Hadoop's file system ({@link dev.sluice.formats.LocalParquetFile}), Parquet INT64
 * timestamps ({@link dev.sluice.formats.ParquetTimestamps}) and file digests
 * ({@link dev.sluice.formats.FileDigest}). Used by the Bronze readers and the sample-data installer.
 */
@NullMarked
package dev.sluice.formats;

import org.jspecify.annotations.NullMarked;
