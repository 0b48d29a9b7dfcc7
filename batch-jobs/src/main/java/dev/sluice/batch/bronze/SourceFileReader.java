package dev.sluice.batch.bronze;

import dev.sluice.config.ContractSpec;
import dev.sluice.config.SourceFormat;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * Reads the rows of one landed file, mapping the file's columns to the contract's columns by name
 * (never by position). Not thread-safe: one reader per file and thread.
 */
public interface SourceFileReader extends AutoCloseable {

    /**
     * The next row, or null at the end of the file.
     *
     * @throws dev.sluice.core.BadInputException naming file, row, column and reason when a value
     *     cannot be read as its contract type
     */
    @Nullable SourceRow next();

    @Override
    void close();

    /**
     * Opens {@code file}.
     *
     * @param displayName how errors name the file (the path relative to the Sluice home)
     * @throws dev.sluice.core.BadInputException when the file cannot be opened or lacks a contract column
     */
    static SourceFileReader open(SourceFormat format, Path file, ContractSpec contract, String displayName) {
        return switch (format) {
            case PARQUET -> new ParquetSourceReader(file, contract, displayName);
            case CSV -> new CsvSourceReader(file, contract, displayName);
        };
    }
}
