package dev.sluice.batch.bronze;

import dev.sluice.config.ColumnSpec;
import dev.sluice.core.BadInputException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import org.jspecify.annotations.Nullable;

/** Parses text fields (CSV) into the Java value of a contract column type. Stateless. */
final class TextValues {

    private TextValues() {
    }

    /**
     * @return the value, or null for empty text
     * @throws BadInputException when the text is not of the column's type
     */
    static @Nullable Object parse(String text, ColumnSpec column, String file, long row) {
        if (text.isEmpty()) {
            return null;
        }
        try {
            return switch (column.type()) {
                case STRING -> noNul(text);
                case INT -> Integer.valueOf(integer(text.strip()));
                case LONG -> Long.valueOf(integer(text.strip()));
                case DOUBLE -> finite(Double.parseDouble(decimal(text.strip())));
                case FLOAT -> (float) finite(Float.parseFloat(decimal(text.strip())));
                case BOOLEAN -> parseBoolean(text.strip());
                case DATE -> LocalDate.parse(text.strip());
                case TIMESTAMP -> timestamp(text.strip().replace(' ', 'T'));
            };
        } catch (NumberFormatException | DateTimeParseException e) {
            throw new BadInputException(file, row, column.name(), "'" + abbreviate(text.replace('\0', '?')) + "' is not "
                    + column.type().withArticle() + (e.getMessage() != null && e.getMessage().startsWith("holds") ? " (" + e.getMessage() + ")"
                    : e.getMessage() != null && e.getMessage().equals("out of range") ? " (out of range)" : ""), e);
        }
    }

    /**
     * An ISO local date-time, or one with an offset ({@code Z}, {@code +02:00}) read as that instant
     * in UTC: a timestamp column is naive and holds UTC when the source says which zone it is in
     * (as JSON epoch times are read).
     */
    private static LocalDateTime timestamp(String text) {
        try {
            return LocalDateTime.parse(text);
        } catch (DateTimeParseException local) {
            try {
                return java.time.OffsetDateTime.parse(text).withOffsetSameInstant(java.time.ZoneOffset.UTC).toLocalDateTime();
            } catch (DateTimeParseException offset) {
                throw local;
            }
        }
    }

    private static final java.util.regex.Pattern INTEGER = java.util.regex.Pattern.compile("[+-]?[0-9]+");
    private static final java.util.regex.Pattern DECIMAL =
            java.util.regex.Pattern.compile("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?");

    /** ASCII digits only: Java's parsers also take other scripts' digits, which a contract never means. */
    private static String integer(String s) {
        if (!INTEGER.matcher(s).matches()) {
            throw new NumberFormatException("not an integer");
        }
        return s;
    }

    /** A plain decimal number; no hex floats, no f/d suffixes, no NaN or Infinity words. */
    private static String decimal(String s) {
        if (!DECIMAL.matcher(s).matches()) {
            throw new NumberFormatException("not a decimal number");
        }
        return s;
    }

    private static double finite(double v) {
        if (Double.isInfinite(v) || Double.isNaN(v)) {
            throw new NumberFormatException("out of range");
        }
        return v;
    }

    /** A NUL character is refused: PostgreSQL cannot store it in text. */
    static String noNul(String s) {
        if (s.indexOf('\0') >= 0) {
            throw new NumberFormatException("holds a NUL character");
        }
        return s;
    }

    private static Boolean parseBoolean(String s) {
        if (s.equalsIgnoreCase("true")) {
            return Boolean.TRUE;
        }
        if (s.equalsIgnoreCase("false")) {
            return Boolean.FALSE;
        }
        throw new NumberFormatException("not true/false");
    }

    private static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 37) + "..." : s;
    }
}
