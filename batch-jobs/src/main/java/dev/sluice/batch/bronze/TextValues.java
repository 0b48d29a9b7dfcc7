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
                case STRING -> text;
                case INT -> Integer.valueOf(text.strip());
                case LONG -> Long.valueOf(text.strip());
                case DOUBLE -> Double.valueOf(text.strip());
                case FLOAT -> Float.valueOf(text.strip());
                case BOOLEAN -> parseBoolean(text.strip());
                case DATE -> LocalDate.parse(text.strip());
                case TIMESTAMP -> LocalDateTime.parse(text.strip().replace(' ', 'T'));
            };
        } catch (NumberFormatException | DateTimeParseException e) {
            throw new BadInputException(file, row, column.name(),
                    "'" + abbreviate(text) + "' is not a " + column.type().id(), e);
        }
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
