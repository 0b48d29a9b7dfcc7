package dev.sluice.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class FaultScheduleTest {

    private static final List<String> TRACE = List.of("run-record:started", "before:bronze.a", "bronze-chunk:bronze.a",
            "bronze-chunk:bronze.a", "bronze-chunk:bronze.a", "before:silver.a", "in-transaction:silver.a", "run-record:finished");

    @Test
    void theSameSeedGivesTheSameScheduleAndAnotherSeedMostlyAnother() {
        assertThat(FaultSchedule.draw(42, TRACE, 5)).isEqualTo(FaultSchedule.draw(42, TRACE, 5));
        long distinct = java.util.stream.LongStream.range(0, 50).mapToObj(s -> FaultSchedule.draw(s, TRACE, 5).kills())
                .distinct().count();
        assertThat(distinct).isGreaterThan(25);
    }

    @Test
    void eachKillIsAReachOfItsPointAfterThePreviousKill() {
        for (long seed = 0; seed < 500; seed++) {
            FaultSchedule s = FaultSchedule.draw(seed, TRACE, 5);
            assertThat(s.kills()).hasSizeBetween(1, 5);
            int after = -1;
            FaultSchedule.Kill previous = null;
            for (FaultSchedule.Kill k : s.kills()) {
                if (previous != null && k.point().equals(previous.point()) && k.nth() == 1) {
                    previous = k;
                    continue; // killed again where the last kill was: at the restart's first reach
                }
                previous = k;
                int seen = 0;
                int at = -1;
                for (int i = after + 1; i < TRACE.size(); i++) {
                    if (TRACE.get(i).equals(k.point()) && ++seen == k.nth()) {
                        at = i;
                        break;
                    }
                }
                assertThat(at).as("%s in %s", k, s).isGreaterThan(after);
                after = at;
            }
        }
        // after the last point only the same point again can follow
        assertThat(FaultSchedule.draw(7, List.of("only"), 5).kills()).allMatch(k -> k.equals(new FaultSchedule.Kill("only", 1)));
    }

    @Test
    void someSchedulesKillTwiceInARowAtTheSamePoint() {
        long twice = java.util.stream.LongStream.range(0, 200).mapToObj(s -> FaultSchedule.draw(s, TRACE, 5).kills())
                .filter(ks -> java.util.stream.IntStream.range(1, ks.size())
                        .anyMatch(i -> ks.get(i).point().equals(ks.get(i - 1).point()) && ks.get(i).nth() == 1))
                .count();
        assertThat(twice).isBetween(40L, 160L);
    }

    @Test
    void anEmptyTraceIsRefused() {
        assertThatThrownBy(() -> FaultSchedule.draw(1, List.of(), 5)).hasMessageContaining("no fault point");
    }
}
