package dev.sluice.config;

import java.math.BigDecimal;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Numbers read from text without a silent change: which texts are numbers, and which values a
 * {@code float} or {@code double} column cannot hold as written. Stateless and thread-safe.
 *
 * <p>A binary floating-point number keeps about 15-17 significant decimal digits (IEEE 754
 * binary64; 6-9 for binary32): 17 digits identify every double, so a text of at most 17
 * significant digits is taken as the double it denotes, while one of more digits
 * ({@code 12345678901234567.89}) would be rounded. An integer written out in full beyond ±2^53
 * ({@code 9007199254740993}; ±2^24 for a float) may not be a double at all and is most likely an
 * identifier or an amount. Both are refused unless the contract column says {@code lossy: true};
 * {@code decimal(p,s)} holds such values exactly.
 */
public final class ExactNumbers {

    /** Significant digits a double keeps (17 identify every double). */
    public static final int DOUBLE_DIGITS = 17;
    /** Significant digits a float keeps (9 identify every float). */
    public static final int FLOAT_DIGITS = 9;
    private static final BigDecimal DOUBLE_INTEGERS = BigDecimal.valueOf(1L << 53);
    private static final BigDecimal FLOAT_INTEGERS = BigDecimal.valueOf(1L << 24);
    /** Optional sign, ASCII digits with an optional point, optional exponent: no hex, NaN, Infinity or d/f suffix. */
    private static final Pattern DECIMAL_TEXT = Pattern.compile("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]{1,9})?");

    private ExactNumbers() {
    }

    /** True when {@code text} is a plain decimal number: {@code -12.5}, {@code .5}, {@code 1e-3}. */
    public static boolean isDecimalText(String text) {
        return DECIMAL_TEXT.matcher(text).matches();
    }

    /**
     * The exact value of a plain decimal number text ({@link #isDecimalText}).
     *
     * @throws NumberFormatException when the text is not one
     */
    public static BigDecimal parse(String text) {
        if (!isDecimalText(text)) {
            throw new NumberFormatException("not a decimal number");
        }
        return new BigDecimal(text);
    }

    /**
     * Why a {@code float} or {@code double} column cannot hold {@code value} as written, or null
     * when it can: more significant digits than the type keeps (trailing zeros do not count), or an
     * integer part written out in full (no exponent: the value's scale is not negative) beyond
     * ±2^53 (±2^24 for a float).
     *
     * @param value the value as read (its scale says how it was written)
     * @param type {@link ColumnType#DOUBLE} or {@link ColumnType#FLOAT}
     */
    public static @Nullable String binaryLoss(BigDecimal value, ColumnType type) {
        if (value.signum() == 0) {
            return null;
        }
        boolean dbl = type == ColumnType.DOUBLE;
        int digits = dbl ? DOUBLE_DIGITS : FLOAT_DIGITS;
        int significant = value.stripTrailingZeros().precision();
        if (significant > digits) {
            return significant + " significant digits, more than the " + digits + " " + type.withArticle() + " keeps";
        }
        if (value.scale() >= 0 && value.abs().compareTo(dbl ? DOUBLE_INTEGERS : FLOAT_INTEGERS) > 0) {
            return "beyond ±2^" + (dbl ? 53 : 24) + " (" + (dbl ? DOUBLE_INTEGERS : FLOAT_INTEGERS).toPlainString()
                    + "), where " + type.withArticle() + " does not hold every integer";
        }
        return null;
    }
}
