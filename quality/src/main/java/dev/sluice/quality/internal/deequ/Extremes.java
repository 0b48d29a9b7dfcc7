package dev.sluice.quality.internal.deequ;

import dev.sluice.quality.InvalidCheckException;
import java.sql.Date;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.jspecify.annotations.Nullable;

/**
 * The least and greatest values of columns that are not numbers (dates, timestamps, strings),
 * which the freshness checks and {@code expect_column_min/max_to_be_between} judge: GE compares
 * them in their own type, strings by code point. Computed as plain Spark aggregates, keyed
 * {@code min:<column>} / {@code max:<column>}. Stateless.
 */
final class Extremes {

    private Extremes() {
    }

    /** The key of a column's least ({@code max} false) or greatest value. */
    static String key(boolean max, String column) {
        return (max ? "max:" : "min:") + column;
    }

    /** The Spark aggregate of a key. */
    static Column aggregate(String key) {
        Column c = functions.col(SparkSql.identifier(key.substring(4)));
        return key.startsWith("max:") ? functions.max(c) : functions.min(c);
    }

    /** True for the non-numeric types whose values are ordered: date, timestamp, string. */
    static boolean comparable(@Nullable DataType type) {
        return type instanceof DateType || type instanceof TimestampType || type instanceof TimestampNTZType || type instanceof StringType;
    }

    /**
     * {@code value} (a Spark date, timestamp or string) against a bound given as text; a date or
     * timestamp bound may be a date ({@code 2019-04-01}, midnight) or an ISO date-time.
     *
     * @return negative, zero or positive as the value is below, equal to or above the bound
     * @throws InvalidCheckException when the bound is not a date or time and the value is one
     */
    static int compare(Object value, String bound, String checkId) {
        if (value instanceof String s) {
            return Integer.signum(java.util.Arrays.compare(s.codePoints().toArray(), bound.codePoints().toArray()));
        }
        LocalDateTime v = time(value);
        if (v == null) {
            throw new InvalidCheckException(checkId + ": cannot compare a " + value.getClass().getSimpleName() + " with " + bound);
        }
        return Integer.signum(v.compareTo(parse(bound, checkId)));
    }

    /** A date or timestamp value as a local date-time (a date at midnight); null for other values. */
    static @Nullable LocalDateTime time(Object value) {
        return value instanceof LocalDateTime l ? l : value instanceof LocalDate d ? d.atStartOfDay()
                : value instanceof Timestamp ts ? ts.toLocalDateTime() : value instanceof Date d ? d.toLocalDate().atStartOfDay()
                : value instanceof Instant i ? LocalDateTime.ofInstant(i, ZoneOffset.UTC) : null;
    }

    private static LocalDateTime parse(String bound, String checkId) {
        LocalDateTime t = parseTime(bound);
        if (t == null) {
            throw new InvalidCheckException(checkId + ": " + bound + " is not a date or a date-time (e.g. 2019-04-01 or 2019-04-01T12:00:00)");
        }
        return t;
    }

    /** A date ({@code 2019-04-01}, midnight) or a date-time ({@code T} or a space between), or null when the text is neither. */
    static @Nullable LocalDateTime parseTime(String text) {
        String t = text.trim();
        try {
            return t.length() == 10 ? LocalDate.parse(t).atStartOfDay() : LocalDateTime.parse(t.replace(' ', 'T'));
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
