package dev.sluice.batch.bronze;

/**
 * One row read from a landed file.
 *
 * @param values the contract's columns in contract order, as Java values: String, Long, Integer,
 *     Double, Boolean, LocalDate, LocalDateTime, or null
 * @param position the 0-based row index in the file (data rows; a CSV header is not counted)
 */
public record SourceRow(Object[] values, long position) {
}
