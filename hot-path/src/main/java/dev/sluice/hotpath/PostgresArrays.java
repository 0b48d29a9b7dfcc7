package dev.sluice.hotpath;

import java.math.BigDecimal;
import java.sql.Array;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.List;
import org.jooq.DataType;
import org.jspecify.annotations.Nullable;

/**
 * A column of a batch as one PostgreSQL array parameter, so that a statement over the batch
 * ({@code unnest(?, ?, …)}) has one parameter per column whatever the batch's size and stays the
 * same SQL from batch to batch (prepared once per connection). Each value is sent in its text form
 * inside an array of the column's element type ({@code Connection.createArrayOf}), so the server
 * reads it with the input function a literal of that type goes through: numbers and booleans by
 * {@code toString} (a double's shortest form that reads back to the same double), decimals
 * without exponent, dates and timestamps ISO-8601 ({@code T} read as the separator, an offset kept).
 * Stateless; thread-safe.
 */
final class PostgresArrays {

    private PostgresArrays() {
    }

    /** Whether {@code v} has a text form PostgreSQL reads back as the same value (no NUL character, a year in 1..9999). */
    static boolean carries(@Nullable Object v) {
        return !(v instanceof String s && s.indexOf('\0') >= 0
                || v instanceof LocalDateTime t && (t.getYear() < 1 || t.getYear() > 9999)
                || v instanceof LocalDate d && (d.getYear() < 1 || d.getYear() > 9999)
                || v instanceof OffsetDateTime o && (o.getYear() < 1 || o.getYear() > 9999));
    }

    /** Whether every value of every one of {@code rows} {@link #carries}: a batch's rows, or its events' values. */
    static boolean carriesAll(java.util.Collection<? extends java.util.Collection<?>> rows) {
        for (java.util.Collection<?> row : rows) {
            for (Object v : row) {
                if (!carries(v)) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * {@code values} (nulls allowed) as an array of {@code type}'s element type.
     *
     * @throws SQLException when the driver refuses the array
     * @throws IllegalArgumentException when {@code type} has no element type here
     */
    static Array of(Connection c, DataType<?> type, List<@Nullable Object> values) throws SQLException {
        String[] text = new String[values.size()];
        for (int i = 0; i < text.length; i++) {
            text[i] = text(values.get(i));
        }
        return c.createArrayOf(element(type), text); // a String[]: the driver's encoder goes by the array's class
    }

    /** The text form of a value (see the class comment); null for null. */
    static @Nullable String text(@Nullable Object v) {
        if (v == null) {
            return null;
        }
        return v instanceof BigDecimal d ? d.toPlainString() : v.toString();
    }

    /** PostgreSQL's name of {@code type}'s element type, as {@code createArrayOf} takes it. */
    static String element(DataType<?> type) {
        return switch (type.getSQLType()) {
            case Types.VARCHAR, Types.CHAR, Types.LONGVARCHAR, Types.CLOB -> "varchar";
            case Types.INTEGER -> "int4";
            case Types.BIGINT -> "int8";
            case Types.DOUBLE, Types.FLOAT -> "float8";
            case Types.REAL -> "float4";
            case Types.BOOLEAN, Types.BIT -> "bool";
            case Types.DATE -> "date";
            case Types.TIMESTAMP -> "timestamp";
            case Types.TIMESTAMP_WITH_TIMEZONE -> "timestamptz";
            case Types.DECIMAL, Types.NUMERIC -> "numeric";
            default -> throw new IllegalArgumentException("no PostgreSQL array element type for " + type.getName());
        };
    }
}
