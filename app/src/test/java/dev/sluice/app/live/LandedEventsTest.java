package dev.sluice.app.live;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.Partition;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The events {@code sluice produce} makes of the real 2001-01-03 flights: one per landed row (16,948),
 * distinct ids although some rows repeat exactly (their ids differ by occurrence index), the same ids
 * on every run, in event-time order, or out of order by at most the shuffle bound.
 */
class LandedEventsTest {

    private static final Partition DAY = new Partition("2001-01-03");

    private static LandedEvents.Result events(Duration shuffle, long seed) {
        PipelineSpec spec = TestHome.flightsSpec(TestHome.freshH2Url(), "sa", "");
        return LandedEvents.of(spec.source("flights").orElseThrow(), DAY, "date", shuffle, seed, TestHome.withSampleData(), spec.maxLineBytes());
    }

    @Test
    void oneEventPerRowWithStableDistinctIdsInOrderOrWithinTheShuffleBound() {
        LandedEvents.Result inOrder = events(Duration.ZERO, 1);
        List<LandedEvents.Event> e = inOrder.events();
        assertThat(e).hasSize(16_948);
        assertThat(inOrder.skipped()).isZero();
        Set<String> ids = new HashSet<>();
        e.forEach(x -> ids.add(x.id()));
        assertThat(ids).hasSize(16_948);
        Set<String> hashes = new HashSet<>();
        e.forEach(x -> hashes.add(x.id().substring(0, x.id().lastIndexOf('-'))));
        long repeats = e.stream().filter(x -> !x.id().endsWith("-0")).count();
        assertThat(repeats).as("exact duplicate rows: same hash, next occurrence index").isEqualTo(3).isEqualTo(16_948 - hashes.size());
        for (int i = 1; i < e.size(); i++) {
            assertThat(e.get(i).eventTimeMs()).isGreaterThanOrEqualTo(e.get(i - 1).eventTimeMs());
        }
        assertThat(events(Duration.ZERO, 7).events()).extracting(LandedEvents.Event::id).containsExactlyElementsOf(
                e.stream().map(LandedEvents.Event::id).toList());

        Duration bound = Duration.ofMinutes(5);
        List<LandedEvents.Event> shuffled = events(bound, 42).events();
        assertThat(shuffled).extracting(LandedEvents.Event::id).containsExactlyInAnyOrderElementsOf(ids);
        long newest = Long.MIN_VALUE;
        long worst = 0;
        int outOfOrder = 0;
        for (LandedEvents.Event x : shuffled) {
            if (x.eventTimeMs() < newest) {
                outOfOrder++;
                worst = Math.max(worst, newest - x.eventTimeMs());
            }
            newest = Math.max(newest, x.eventTimeMs());
        }
        assertThat(outOfOrder).as("shuffled").isPositive();
        assertThat(worst).as("never more than the bound out of order").isLessThan(bound.toMillis());
    }
}
