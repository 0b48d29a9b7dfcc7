package dev.sluice.app.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.BadInputException;
import dev.sluice.core.Partition;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which partition a fire loads, from its scheduled time: "02:30 Europe/Berlin loads D−1" gives
 * exactly one load per business date across both DST changes of 2026 (29 March: 02:00 → 03:00, the
 * 02:30 fire does not exist; 25 October: 03:00 → 02:00, 02:30 happens twice), hourly partitions are
 * UTC hours (one per real hour, also on those days), per-fire partitions are the fire instants.
 */
class FireScheduleTest {

    @TempDir
    Path home;

    private PipelineSpec spec(String kind, String cron, String zone, String lag) {
        Path file = TicksPipeline.write(home, kind, "cron: \"" + cron + "\", time_zone: " + zone + (lag == null ? "" : ", lag: " + lag), 0);
        return new dev.sluice.config.PipelineSpecLoader(TestHome.environment(home, "jdbc:h2:mem:unused", "sa", "").interpolator()).load(file);
    }

    /** What the fires between the two instants load, each fire's partitions in order. */
    private static List<String> partitions(FireSchedule s, String from, String to) {
        List<String> out = new ArrayList<>();
        for (Instant t : s.firesBetween(Instant.parse(from), Instant.parse(to))) {
            s.partitionsFor(t).forEach(p -> out.add(p.key()));
        }
        return out;
    }

    private static List<String> days(String first, int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(LocalDate.parse(first).plusDays(i).toString());
        }
        return out;
    }

    @Test
    void aDailyFireInBerlinLoadsEachBusinessDateOnceAcrossBothDstChanges() {
        FireSchedule s = new FireSchedule(spec("daily", "0 30 2 * * ?", "Europe/Berlin", "1"));
        // Quartz has no 02:30 fire on 29 March (02:00 jumps to 03:00): the 30 March fire also loads what it skipped
        Instant march30 = Instant.parse("2026-03-30T00:30:00Z");
        assertThat(s.firesBetween(Instant.parse("2026-03-28T00:00:00Z"), march30))
                .containsExactly(Instant.parse("2026-03-28T01:30:00Z"), march30);
        assertThat(s.partitionsFor(march30)).extracting(Partition::key).containsExactly("2026-03-28", "2026-03-29");
        assertThat(partitions(s, "2026-03-26T00:00:00Z", "2026-04-01T00:00:00Z")).containsExactlyElementsOf(days("2026-03-25", 6));
        assertThat(partitions(s, "2026-10-22T00:00:00Z", "2026-10-28T00:00:00Z")).containsExactlyElementsOf(days("2026-10-21", 6));
        // the partition comes from the scheduled time in Berlin: 00:30 UTC on 1 July is 02:30 local, D−1 = 30 June
        assertThat(s.partitionOf(Instant.parse("2026-07-01T00:30:00Z"))).isEqualTo(Partition.daily(LocalDate.parse("2026-06-30")));
    }

    @Test
    void hourlyPartitionsAreUtcHoursOnePerRealHourAlsoWhenClocksFallBack() {
        FireSchedule s = new FireSchedule(spec("hourly", "0 5 * * * ?", "Europe/Berlin", "1"));
        // the repeated local 02:05 fires once in Quartz: the next fire also loads the hour it skipped
        List<String> hours = partitions(s, "2026-10-24T22:00:00Z", "2026-10-25T04:00:00Z");
        assertThat(hours).containsExactly("2026-10-24T21", "2026-10-24T22", "2026-10-24T23", "2026-10-25T00", "2026-10-25T01",
                "2026-10-25T02");
    }

    @Test
    void perFirePartitionsAreTheScheduledInstants() {
        FireSchedule s = new FireSchedule(spec("per_fire", "0/2 * * * * ?", "UTC", null));
        // a weekday-only daily schedule leaves its weekend gap alone
        FireSchedule weekdays = new FireSchedule(spec("daily", "0 30 2 ? * MON-FRI", "UTC", "1"));
        assertThat(weekdays.partitionsFor(Instant.parse("2026-11-30T02:30:00Z"))).extracting(Partition::key).containsExactly("2026-11-29");
        assertThat(partitions(s, "2026-11-30T08:00:00Z", "2026-11-30T08:00:06Z"))
                .containsExactly("2026-11-30T08:00:02Z", "2026-11-30T08:00:04Z", "2026-11-30T08:00:06Z");
    }

    @Test
    void aBadCronExpressionIsRefusedNamingTheSpec() {
        assertThatThrownBy(() -> new FireSchedule(spec("daily", "0 30 25 * * ?", "UTC", "1")))
                .isInstanceOf(BadInputException.class).hasMessageContaining("schedule.cron").hasMessageContaining("not a Quartz cron");
    }
}
