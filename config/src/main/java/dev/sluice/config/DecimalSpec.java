package dev.sluice.config;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The shape of an exact decimal, {@code decimal(p,s)}: at most {@code p} digits in all, {@code s}
 * of them after the decimal point (SQL's {@code DECIMAL(p,s)}, PostgreSQL's {@code numeric(p,s)},
 * Parquet's DECIMAL logical type). A contract declares at most {@value #MAX_PRECISION} digits
 * (Spark's and Iceberg's limit, so that the lakehouse engine holds the same values); a file may
 * declare more (Parquet allows any), and its values are then judged one by one by {@link #fit}.
 * Immutable and thread-safe.
 *
 * @param precision the number of digits, at least 1
 * @param scale the digits after the point, 0 to {@code precision}
 */
public record DecimalSpec(int precision, int scale) {

    /** The most digits a contract or layer column may declare. */
    public static final int MAX_PRECISION = 38;

    private static final Pattern SPELLING = Pattern.compile("decimal\\(\\s*(\\d{1,9})\\s*,\\s*(\\d{1,9})\\s*\\)",
            Pattern.CASE_INSENSITIVE);

    public DecimalSpec {
        if (precision < 1 || scale < 0 || scale > precision) {
            throw new IllegalArgumentException("decimal(" + precision + "," + scale
                    + "): precision is at least 1 and scale is 0 to precision");
        }
    }

    /** The spec spelling, e.g. {@code decimal(12,2)}. */
    public String id() {
        return "decimal(" + precision + "," + scale + ")";
    }

    /** The SQL type, e.g. {@code DECIMAL(12,2)} (the same text on H2 and PostgreSQL). */
    public String sql() {
        return "DECIMAL(" + precision + "," + scale + ")";
    }

    /** The digits allowed before the point ({@code precision - scale}). */
    public int integerDigits() {
        return precision - scale;
    }

    /** True when every value of {@code other} fits this shape without rounding. */
    public boolean holds(DecimalSpec other) {
        return other.scale <= scale && other.integerDigits() <= integerDigits();
    }

    /**
     * {@code value} with exactly {@link #scale} digits after the point, never rounded.
     *
     * @throws ArithmeticException naming what does not fit: more digits after the point than the
     *     scale (it would be rounded), or more before it than {@code precision - scale}
     */
    public BigDecimal fit(BigDecimal value) {
        if (value.signum() == 0) {
            return BigDecimal.ZERO.setScale(scale);
        }
        // stripped first: a huge exponent (1e-999999999) must not be expanded digit by digit
        BigDecimal v = value.stripTrailingZeros();
        if (v.scale() > scale) {
            throw new ArithmeticException(v.scale() + " digits after the point, " + id() + " keeps " + scale
                    + " (it would be rounded)");
        }
        long before = (long) v.precision() - v.scale();
        if (before > integerDigits()) {
            throw new ArithmeticException(before + " digits before the point, " + id() + " holds " + integerDigits());
        }
        return v.setScale(scale);
    }

    /**
     * Parses {@code decimal(p,s)} (case-insensitive, spaces allowed after {@code (} and around the
     * comma); empty when the text is not of that form or p/s are out of range.
     */
    public static Optional<DecimalSpec> parse(String text) {
        Matcher m = SPELLING.matcher(text.strip().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new DecimalSpec(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
