package dev.sluice.batch.bronze;

import dev.sluice.config.ColumnSpec;
import java.util.List;
import dev.sluice.config.SourceSpec;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * Reads the rows of one landed file, mapping the file's columns to the wanted columns (the
 * contract's, plus any the Bronze table gained by drift) by name, never by position. A wanted
 * nullable column the file lacks reads as NULL. Not thread-safe: one reader per file and thread.
 */
public interface SourceFileReader extends AutoCloseable {

    /**
     * The next row, or null at the end of the file. A value that does not satisfy the contract is
     * reported in {@link SourceRow#errors()}, not thrown.
     *
     * @throws dev.sluice.core.BadInputException naming file and row when the file itself cannot be
     *     read further (corrupt, not of its format)
     */
    @Nullable SourceRow next();

    @Override
    void close();

    /**
     * Opens {@code file}.
     *
     * @param displayName how errors name the file (the path relative to the Sluice home)
     * @param maxLineBytes a text line longer than this (counted in characters) is a row error
     * @throws dev.sluice.core.BadInputException when the file cannot be opened or lacks a required column
     */
    static SourceFileReader open(SourceSpec source, Path file, List<ColumnSpec> columns, String displayName,
            long maxLineBytes) {
        return switch (source.format()) {
            case PARQUET -> new ParquetSourceReader(file, columns, displayName);
            case CSV -> new CsvSourceReader(file, columns, displayName, maxLineBytes, source.csv());
            case JSON -> JsonSourceReader.document(file, columns, displayName, source.arrayPath());
            case NDJSON -> JsonSourceReader.lines(file, columns, displayName, maxLineBytes);
        };
    }
}
