package dev.sluice.batch.bronze;

import java.util.List;

/**
 * One row read from a landed file.
 *
 * @param values the wanted columns in order, as Java values: String, Long, Integer, Float, Double,
 *     Boolean, LocalDate, LocalDateTime, or null (also for a value in {@code errors})
 * @param position the 0-based row index in the file (data rows; a CSV header is not counted)
 * @param errors values that do not satisfy the contract; empty for a good row
 */
public record SourceRow(Object[] values, long position, List<FieldError> errors) {

    public SourceRow {
        errors = List.copyOf(errors);
    }
}
