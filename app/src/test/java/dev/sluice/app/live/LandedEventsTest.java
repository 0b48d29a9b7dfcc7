package dev.sluice.app.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.BadInputException;
import dev.sluice.core.Partition;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The events {@code sluice produce} makes of the real 2001-01-03 flights: one per landed row (16,948),
 * distinct ids although some rows repeat exactly (their ids differ by occurrence index), the same ids
 * on every run, in event-time order, or out of order by at most the shuffle bound. And of the
 * earthquake feed: the whole file (1,707 events over 8 UTC days), or one day of it; the flights
 * source (a directory per partition) has no "whole".
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

    @Test
    void theWholeEarthquakeFeedOrOneDayOfItButNoWholeFlightsSource() {
        PipelineSpec spec = TestHome.projectSpec("earthquakes", TestHome.freshH2Url(), "sa", "", java.util.Map.of());
        var source = spec.source("earthquakes").orElseThrow();
        LandedEvents.Result all = LandedEvents.all(source, "event_time", Duration.ZERO, 1, TestHome.withSampleData(), spec.maxLineBytes());
        assertThat(all.events()).hasSize(1_707);
        assertThat(all.skipped()).isZero();
        assertThat(all.events()).extracting(LandedEvents.Event::id).doesNotHaveDuplicates();
        assertThat(all.events().stream().map(e -> Instant.ofEpochMilli(e.eventTimeMs()).atZone(ZoneOffset.UTC).toLocalDate().toString())
                .distinct()).containsExactly("2018-01-31", "2018-02-01", "2018-02-02", "2018-02-03", "2018-02-04", "2018-02-05", "2018-02-06",
                        "2018-02-07");
        LandedEvents.Result day = LandedEvents.of(source, new Partition("2018-02-07"), "event_time", Duration.ZERO, 1, TestHome.withSampleData(),
                spec.maxLineBytes());
        assertThat(day.events()).hasSize(14);
        assertThat(all.events().subList(all.events().size() - 14, all.events().size())).extracting(LandedEvents.Event::id)
                .as("the same ids as in the whole feed").containsExactlyElementsOf(day.events().stream().map(LandedEvents.Event::id).toList());

        PipelineSpec flights = TestHome.flightsSpec(TestHome.freshH2Url(), "sa", "");
        assertThatThrownBy(() -> LandedEvents.all(flights.source("flights").orElseThrow(), "date", Duration.ZERO, 1, TestHome.withSampleData(),
                flights.maxLineBytes())).isInstanceOf(BadInputException.class)
                .hasMessageEndingWith("source flights lands one directory per partition: publish one partition at a time (--partition D)");
    }
}
