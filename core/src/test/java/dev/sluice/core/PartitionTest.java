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

    @org.junit.jupiter.api.Test
    void anyKindOfKeyParses() {
        org.assertj.core.api.Assertions.assertThat(Partition.parseAny("2001-02").kind()).contains(PartitionKind.MONTHLY);
        org.assertj.core.api.Assertions.assertThat(Partition.parseAny("2001-02-28").kind()).contains(PartitionKind.DAILY);
        org.assertj.core.api.Assertions.assertThat(Partition.parseAny("none")).isEqualTo(Partition.NONE);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Partition.parseAny("2001-13"))
                .hasMessage("'2001-13' is not a month of the form YYYY-MM");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Partition.parseAny("yesterday")).hasMessageStartingWith("partition 'yesterday' is not a day");
    }
}
