package dev.sluice.app.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RecentRateTest {

    private static final long S = 1_000_000_000L;

    @Test
    void theFirstItemsSlowStartIsNotPartOfTheRateOrTheEta() {
        AtomicLong now = new AtomicLong();
        RecentRate rate = new RecentRate(now::get);
        assertThat(rate.remaining(182)).isEmpty();
        now.set(100 * S); // the first partition also started Spark
        rate.completed(1);
        assertThat(rate.perSecond()).isEmpty();
        assertThat(rate.remaining(182)).as("one completion gives no pace yet").isEmpty();
        now.set(110 * S);
        rate.completed(2);
        now.set(120 * S);
        rate.completed(3);
        assertThat(rate.perSecond()).hasValue(0.1);
        assertThat(rate.remaining(182)).contains(Duration.ofSeconds(1790));
        now.set(125 * S); // counted down between completions
        assertThat(rate.remaining(182)).contains(Duration.ofSeconds(1785));
        rate.completed(3); // the same count again changes nothing
        assertThat(rate.remaining(182)).contains(Duration.ofSeconds(1785));
    }

    @Test
    void theRateFollowsTheLastTenCompletions() {
        AtomicLong now = new AtomicLong();
        RecentRate rate = new RecentRate(now::get);
        for (int i = 1; i <= 11; i++) { // ten seconds apart
            now.set(i * 10 * S);
            rate.completed(i);
        }
        assertThat(rate.perSecond()).hasValue(0.1);
        for (int i = 12; i <= 21; i++) { // then two seconds apart: the older pace has left the window
            now.addAndGet(2 * S);
            rate.completed(i);
        }
        assertThat(rate.perSecond()).hasValue(0.5);
        assertThat(rate.remaining(31)).contains(Duration.ofSeconds(20));
    }
}
