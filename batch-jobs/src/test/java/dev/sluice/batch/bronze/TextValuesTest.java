package dev.sluice.batch.bronze;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.config.AllowedValues;
import dev.sluice.config.ColumnSpec;
import dev.sluice.config.ColumnType;
import dev.sluice.config.DecimalSpec;
import dev.sluice.core.BadInputException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;

/**
 * Text values: timestamps local or with an offset read as the UTC instant; decimals exact or a
 * field error; a double that would round what is written is a field error unless lossy; white
 * space around a non-string value is a field error unless the column trims.
 */
class TextValuesTest {

    private static final ColumnSpec TS = new ColumnSpec("at", ColumnType.TIMESTAMP, true);

    @Test
    void timestampsWithAnOffsetAreReadAsUtc() {
        assertThat(TextValues.parse("2018-02-01T10:00:00", TS, "f.csv", 1)).isEqualTo(LocalDateTime.parse("2018-02-01T10:00"));
        assertThat(TextValues.parse("2018-02-01 10:00", TS, "f.csv", 1)).isEqualTo(LocalDateTime.parse("2018-02-01T10:00"));
        assertThat(TextValues.parse("2018-02-01T10:00:00Z", TS, "f.csv", 1)).isEqualTo(LocalDateTime.parse("2018-02-01T10:00"));
        assertThat(TextValues.parse("2018-02-01 12:30:00+02:00", TS, "f.csv", 1)).isEqualTo(LocalDateTime.parse("2018-02-01T10:30"));
        assertThat(TextValues.parse("2018-02-01T00:30:00-01:00", TS, "f.csv", 1)).isEqualTo(LocalDateTime.parse("2018-02-01T01:30"));
        assertThatThrownBy(() -> TextValues.parse("2018-02-30T10:00:00Z", TS, "f.csv", 7)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("'2018-02-30T10:00:00Z' is not a timestamp");
        assertThat(TextValues.parse("2018-02-01T10:00:00.123456", TS, "f.csv", 1)).isEqualTo(LocalDateTime.parse("2018-02-01T10:00:00.123456"));
        assertThatThrownBy(() -> TextValues.parse("2018-02-01T10:00:00.000000123Z", TS, "f.csv", 7)).isInstanceOf(BadInputException.class)
                .hasMessage("f.csv, row 7, column 'at': '2018-02-01T10:00:00.000000123Z' has nanoseconds (123 ns past the"
                        + " microsecond); a timestamp column holds microseconds, so it would be cut: refused, not cut");
    }

    private static final ColumnSpec AMOUNT = ColumnSpec.decimal("amount", new DecimalSpec(12, 2), true);
    private static final ColumnSpec SCORE = new ColumnSpec("score", ColumnType.DOUBLE, true);

    private static String reason(String text, ColumnSpec c) {
        return assertThrows(BadInputException.class, () -> TextValues.parse(text, c, "f.csv", 3)).reason();
    }

    @Test
    void aDecimalIsReadExactlyAtItsScaleOrRefusedNeverRounded() {
        assertThat(TextValues.parse("12.5", AMOUNT, "f.csv", 1)).isEqualTo(new BigDecimal("12.50"));
        assertThat(TextValues.parse("-0", AMOUNT, "f.csv", 1)).isEqualTo(new BigDecimal("0.00"));
        assertThat(TextValues.parse("1.2300000", AMOUNT, "f.csv", 1)).isEqualTo(new BigDecimal("1.23"));
        assertThat(TextValues.parse("9999999999.99", AMOUNT, "f.csv", 1)).isEqualTo(new BigDecimal("9999999999.99"));
        assertThat(TextValues.parse("1.5e3", AMOUNT, "f.csv", 1)).isEqualTo(new BigDecimal("1500.00"));
        assertThat(reason("12345678901234567.89", AMOUNT))
                .isEqualTo("'12345678901234567.89' does not fit decimal(12,2): 17 digits before the point, decimal(12,2) holds 10");
        assertThat(reason("0.125", AMOUNT))
                .isEqualTo("'0.125' does not fit decimal(12,2): 3 digits after the point, decimal(12,2) keeps 2 (it would be rounded)");
        assertThat(reason("1e999999999", AMOUNT)).startsWith("'1e999999999' does not fit decimal(12,2): 1000000000 digits before");
        assertThat(reason("1e-999999999", AMOUNT)).startsWith("'1e-999999999' does not fit decimal(12,2): 999999999 digits after");
        assertThat(reason("12,5", AMOUNT)).isEqualTo("'12,5' is not a decimal");
        assertThat(reason("NaN", AMOUNT)).isEqualTo("'NaN' is not a decimal");
    }

    @Test
    void aDoubleThatWouldRoundWhatIsWrittenIsAFieldErrorNamingDecimalUnlessLossy() {
        assertThat(reason("12345678901234567.89", SCORE)).isEqualTo("'12345678901234567.89' would be rounded to 1.2345678901234568E16"
                + " as a double (19 significant digits, more than the 17 a double keeps): declare the column decimal(p,s)"
                + " to keep it exactly, or lossy: true to accept the rounding");
        assertThat(reason("9007199254740993", SCORE)).isEqualTo("'9007199254740993' would be rounded to 9.007199254740992E15"
                + " as a double (beyond ±2^53 (9007199254740992), where a double does not hold every integer):"
                + " declare the column decimal(p,s) to keep it exactly, or lossy: true to accept the rounding");
        assertThat(reason("1e-400", SCORE)).isEqualTo("'1e-400' is not a double (out of range)");
        // 17 digits identify a double; an exponent does not claim every integer digit; trailing zeros are no digits
        assertThat(TextValues.parse("0.10000000000000001", SCORE, "f.csv", 1)).isEqualTo(0.1);
        assertThat(TextValues.parse("9007199254740992", SCORE, "f.csv", 1)).isEqualTo(9.007199254740992E15);
        assertThat(TextValues.parse("6.02214076e23", SCORE, "f.csv", 1)).isEqualTo(6.02214076e23);
        assertThat(TextValues.parse("1.50000000000000000000", SCORE, "f.csv", 1)).isEqualTo(1.5);
        ColumnSpec lossy = new ColumnSpec("score", ColumnType.DOUBLE, true, null, false, AllowedValues.ANY, null, false, true);
        assertThat(TextValues.parse("12345678901234567.89", lossy, "f.csv", 1)).isEqualTo(1.2345678901234568E16);
        ColumnSpec f = new ColumnSpec("f", ColumnType.FLOAT, true);
        assertThat(reason("16777217", f)).startsWith("'16777217' would be rounded to 1.6777216E7 as a float (beyond ±2^24 (16777216)");
        assertThat(TextValues.parse("0.1", f, "f.csv", 1)).isEqualTo(0.1f);
    }

    @Test
    void whiteSpaceAroundAValueIsAFieldErrorUnlessTheColumnTrims() {
        ColumnSpec day = new ColumnSpec("day_of", ColumnType.DATE, true);
        assertThat(reason(" 2021-09-16", day))
                .isEqualTo("' 2021-09-16' has white space around it; the contract column may say trim: true to remove it");
        assertThat(reason("42\t", new ColumnSpec("n", ColumnType.LONG, true))).startsWith("'42\t' has white space around it");
        ColumnSpec trimmed = new ColumnSpec("day_of", ColumnType.DATE, true, null, false, AllowedValues.ANY, null, true, false);
        assertThat(TextValues.parse(" 2021-09-16 ", trimmed, "f.csv", 1)).isEqualTo(LocalDate.parse("2021-09-16"));
        assertThat(TextValues.parse("   ", trimmed, "f.csv", 1)).isNull();
        ColumnSpec note = new ColumnSpec("note", ColumnType.STRING, true);
        assertThat(TextValues.parse(" kept as written ", note, "f.csv", 1)).isEqualTo(" kept as written ");
        ColumnSpec trimmedNote = new ColumnSpec("note", ColumnType.STRING, true, null, false, AllowedValues.ANY, null, true, false);
        assertThat(TextValues.parse(" cut ", trimmedNote, "f.csv", 1)).isEqualTo("cut");
    }
}
