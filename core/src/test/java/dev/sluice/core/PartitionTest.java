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
                .isInstanceOf(SluiceException.class).hasMessage("'2001-13-01' has the form YYYY-MM-DD but is not a date: there is no month 13");
        assertThatThrownBy(() -> Partition.parseDaily("2001-02-30"))
                .hasMessage("'2001-02-30' has the form YYYY-MM-DD but is not a date: February 2001 has 28 days");
        assertThatThrownBy(() -> Partition.parseDaily("2000-02-30"))
                .hasMessage("'2000-02-30' has the form YYYY-MM-DD but is not a date: February 2000 has 29 days");
        assertThatThrownBy(() -> Partition.parseDaily("2001-2-3")).hasMessage("'2001-2-3' is not a date of the form YYYY-MM-DD");
        assertThatThrownBy(() -> PartitionKind.HOURLY.parse("2001-02-03T24"))
                .hasMessage("'2001-02-03T24' has the form YYYY-MM-DDTHH but is not an hour (UTC): there is no hour 24");
        assertThatThrownBy(() -> PartitionKind.PER_FIRE.parse("2001-02-03T10:60:00Z"))
                .hasMessage("'2001-02-03T10:60:00Z' has the form YYYY-MM-DDTHH:MM:SSZ but is not a fire instant (UTC): there is no minute 60");
    }

    @org.junit.jupiter.api.Test
    void anyKindOfKeyParses() {
        org.assertj.core.api.Assertions.assertThat(Partition.parseAny("2001-02").kind()).contains(PartitionKind.MONTHLY);
        org.assertj.core.api.Assertions.assertThat(Partition.parseAny("2001-02-28").kind()).contains(PartitionKind.DAILY);
        org.assertj.core.api.Assertions.assertThat(Partition.parseAny("none")).isEqualTo(Partition.NONE);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Partition.parseAny("2001-13"))
                .hasMessage("'2001-13' has the form YYYY-MM but is not a month: there is no month 13");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Partition.parseAny("yesterday")).hasMessageStartingWith("partition 'yesterday' is not a day");
    }
}
