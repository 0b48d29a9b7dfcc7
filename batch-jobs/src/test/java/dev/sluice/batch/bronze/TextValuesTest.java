package dev.sluice.batch.bronze;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.config.ColumnSpec;
import dev.sluice.config.ColumnType;
import dev.sluice.core.BadInputException;
import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;

/** Text values of timestamp columns: local, or with an offset read as the UTC instant. */
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
    }
}
