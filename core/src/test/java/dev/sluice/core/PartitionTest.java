package dev.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.LocalDate;
import org.junit.jupiter.api.Test;

class PartitionTest {

    @Test
    void dailyKeyIsTheIsoDate() {
        Partition p = Partition.parseDaily("2001-07-01");
        assertThat(p.key()).isEqualTo("2001-07-01");
        assertThat(p.date()).isEqualTo(LocalDate.of(2001, 7, 1));
        assertThat(Partition.daily(LocalDate.of(2001, 1, 2))).isLessThan(p);
    }

    @Test
    void aBadDateSaysWhatIsExpected() {
        assertThatThrownBy(() -> Partition.parseDaily("2001-13-01"))
                .isInstanceOf(SluiceException.class).hasMessageContaining("YYYY-MM-DD");
    }
}
