package dev.sluice.engine;

import java.util.List;

/**
 * What one read-only query returned ({@link TableReads#query}).
 *
 * @param columns the result's column names, in order (a name may appear twice)
 * @param rows at most the requested number of rows, each value as java.time and java.math types
 *     (Long, Double, BigDecimal, String, LocalDate, LocalDateTime, OffsetDateTime, byte[], List for
 *     an array …; null for SQL NULL)
 * @param total the rows the query returns in all, ≥ {@code rows.size()}
 */
public record QueryResult(List<String> columns, List<List<Object>> rows, long total) {
}
