package dev.sluice.batch.bronze;

import dev.sluice.config.ColumnSpec;
import dev.sluice.config.ColumnType;
import dev.sluice.config.ExactNumbers;
import dev.sluice.core.BadInputException;
import dev.sluice.core.BoundedText;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Parses text fields (CSV, and JSON strings) into the Java value of a contract column type, never
 * changing a value on the way: no white space stripped unless the column says {@code trim: true},
 * no number rounded that its type cannot hold as written (a float/double beyond
 * {@link ExactNumbers#binaryLoss}, unless {@code lossy: true}; a decimal with more digits than its
 * {@code decimal(p,s)}), no lenient date. Stateless.
 */
final class TextValues {

    private static final Pattern INTEGER = Pattern.compile("[+-]?[0-9]+");

    private TextValues() {
    }

    /**
     * @return the value (String, Integer, Long, Float, Double, BigDecimal of the column's scale,
     *     Boolean, LocalDate or LocalDateTime), or null for empty text (also text that is empty
     *     once trimmed, when the column trims)
     * @throws BadInputException when the text is not of the column's type; its reason quotes the
     *     text (cut to 40 characters) and says why
     */
    static @Nullable Object parse(String text, ColumnSpec column, String file, long row) {
        String t = column.trim() ? text.strip() : text;
        if (t.isEmpty()) {
            return null;
        }
        try {
            if (column.type() != ColumnType.STRING
                    && (Character.isWhitespace(t.charAt(0)) || Character.isWhitespace(t.charAt(t.length() - 1)))) {
                throw new Refused("has white space around it; the contract column may say trim: true to remove it");
            }
            return switch (column.type()) {
                case STRING -> noNul(t);
                case INT -> Integer.valueOf(integer(t));
                case LONG -> Long.valueOf(integer(t));
                case DOUBLE, FLOAT -> floating(t, column);
                case DECIMAL -> column.decimal().fit(decimalText(t));
                case BOOLEAN -> parseBoolean(t);
                case DATE -> LocalDate.parse(t);
                case TIMESTAMP -> timestamp(t.replace(' ', 'T'));
            };
        } catch (Refused e) {
            throw new BadInputException(file, row, column.name(), "'" + abbreviate(t) + "' " + e.getMessage(), e);
        } catch (ArithmeticException e) {
            throw new BadInputException(file, row, column.name(), "'" + abbreviate(t) + "' does not fit "
                    + column.typeId() + ": " + e.getMessage(), e);
        } catch (NumberFormatException | DateTimeParseException e) {
            throw new BadInputException(file, row, column.name(), "'" + abbreviate(t) + "' is not "
                    + column.type().withArticle() + (e.getMessage() != null && e.getMessage().startsWith("holds") ? " (" + e.getMessage() + ")"
                    : e.getMessage() != null && e.getMessage().equals("out of range") ? " (out of range)" : ""), e);
        }
    }

    /**
     * The reason a float/double column refuses an exact value it would round, or null: see
     * {@link ExactNumbers#binaryLoss}; never for a {@code lossy} column.
     *
     * @param rounded the value as the column would store it
     */
    static @Nullable String lossReason(BigDecimal exact, Object rounded, ColumnSpec column) {
        if (column.lossy()) {
            return null;
        }
        String loss = ExactNumbers.binaryLoss(exact, column.type());
        return loss == null ? null : "would be rounded to " + rounded + " as " + column.type().withArticle() + " (" + loss
                + "): declare the column decimal(p,s) to keep it exactly, or lossy: true to accept the rounding";
    }

    /**
     * A finite Double or Float, refused when the column would round what is written, and out of
     * range when it overflows or a value that is not zero underflows to zero.
     */
    private static Object floating(String text, ColumnSpec column) {
        BigDecimal exact = decimalText(text);
        Object stored;
        if (column.type() == ColumnType.FLOAT) {
            float f = Float.parseFloat(text);
            stored = Float.isInfinite(f) || f == 0 && exact.signum() != 0 ? outOfRange() : f;
        } else {
            double d = Double.parseDouble(text);
            stored = Double.isInfinite(d) || d == 0 && exact.signum() != 0 ? outOfRange() : d;
        }
        String loss = lossReason(exact, stored, column);
        if (loss != null) {
            throw new Refused(loss);
        }
        return stored;
    }

    private static Object outOfRange() {
        throw new NumberFormatException("out of range");
    }

    /** A value refused with a whole reason of its own (the text is quoted before it). */
    private static final class Refused extends RuntimeException {
        Refused(String reason) {
            super(reason, null, false, false);
        }
    }

    /**
     * An ISO local date-time, or one with an offset ({@code Z}, {@code +02:00}) read as that instant
     * in UTC: a timestamp column is naive and holds UTC when the source says which zone it is in
     * (as JSON epoch times are read).
     */
    private static LocalDateTime timestamp(String text) {
        LocalDateTime t;
        try {
            t = LocalDateTime.parse(text);
        } catch (DateTimeParseException local) {
            try {
                t = OffsetDateTime.parse(text).withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime();
            } catch (DateTimeParseException offset) {
                throw local;
            }
        }
        String loss = subMicrosecondReason(t);
        if (loss != null) {
            throw new Refused(loss);
        }
        return t;
    }

    /**
     * Why {@code t} cannot be stored whole, or null when it can: a timestamp column holds
     * microseconds (H2's and PostgreSQL's {@code TIMESTAMP}, Iceberg's {@code timestamp}), so a
     * value with a nanosecond digit (e.g. Parquet's {@code TIMESTAMP(NANOS)} {@code 00:01:00.000000123})
     * is a field error, its row quarantined with the text kept, never cut to {@code 00:01:00}.
     */
    static @Nullable String subMicrosecondReason(LocalDateTime t) {
        return t.getNano() % 1_000 == 0 ? null
                : "has nanoseconds (" + t.getNano() % 1_000 + " ns past the microsecond); a timestamp column holds"
                        + " microseconds, so it would be cut: refused, not cut";
    }

    /** ASCII digits only: Java's parsers also take other scripts' digits, which a contract never means. */
    private static String integer(String s) {
        if (!INTEGER.matcher(s).matches()) {
            throw new NumberFormatException("not an integer");
        }
        return s;
    }

    /** A plain decimal number's exact value; no hex floats, no f/d suffixes, no NaN or Infinity words. */
    private static BigDecimal decimalText(String s) {
        try {
            return ExactNumbers.parse(s);
        } catch (NumberFormatException e) {
            throw new NumberFormatException("not a decimal number");
        }
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

    /** Text quoted in a reason: at most 40 characters, NUL shown as {@code ?}, never half a surrogate pair. */
    static String abbreviate(String s) {
        String shown = s.replace('\0', '?');
        return shown.length() > 40 ? BoundedText.prefix(shown, 37) + "..." : shown;
    }
}
