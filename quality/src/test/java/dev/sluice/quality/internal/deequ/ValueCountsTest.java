package dev.sluice.quality.internal.deequ;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.sql.Date;
import java.time.LocalDate;
import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;

/** How a distinct-value check compares a column's values with its {@code value_set}. */
class ValueCountsTest {

    @Test
    void numbersCompareByValueAndAFloatAsTheFloatItWas() {
        assertThat(ValueCounts.canonical(6L, null)).isEqualTo(ValueCounts.canonical("6.0", 6L)).isEqualTo("6");
        assertThat(ValueCounts.canonical(new BigDecimal("2.50"), null)).isEqualTo(ValueCounts.canonical("2.5", 1.0)).isEqualTo("2.5");
        // a float column's 0.1 read back as a double is 0.10000000149011612: still the set's 0.1
        assertThat(ValueCounts.canonical((double) 0.1f, null)).isEqualTo(ValueCounts.canonical("0.1", (double) 0.1f)).isEqualTo("0.1");
        assertThat(ValueCounts.canonical(0.1f, null)).isEqualTo("0.1");
        // a double that is no float keeps its own digits
        assertThat(ValueCounts.canonical(0.1, null)).isEqualTo("0.1");
        assertThat(ValueCounts.canonical(0.30000000000000004, null)).isEqualTo("0.30000000000000004");
        assertThat(ValueCounts.canonical(0.0, null)).isEqualTo(ValueCounts.canonical("-0", 1L)).isEqualTo("0");
        assertThat(ValueCounts.canonical("x1", 1L)).isEqualTo("x1");
    }

    @Test
    void datesAndTimesCompareAsTimesAndTextAsText() {
        assertThat(ValueCounts.canonical(Date.valueOf("2021-01-01"), null)).isEqualTo(ValueCounts.canonical("2021-01-01", LocalDate.of(2021, 1, 1)))
                .isEqualTo("2021-01-01T00:00");
        assertThat(ValueCounts.canonical("2021-01-01 12:00:00", LocalDateTime.of(2021, 1, 1, 0, 0))).isEqualTo("2021-01-01T12:00");
        assertThat(ValueCounts.canonical("2021-02-30", LocalDate.of(2021, 1, 1))).isEqualTo("2021-02-30");
        assertThat(ValueCounts.canonical("é", "a")).isEqualTo("é");
        assertThat(ValueCounts.canonical(null, "a")).isEqualTo("null");
    }
}
