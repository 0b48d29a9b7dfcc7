package dev.sluice.app.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RecentRateTest {

    private static final long S = 1_000_000_000L;

    @Test
    void theFirstItemsSlowStartLeavesThePaceAMinuteAfterIt() {
        AtomicLong now = new AtomicLong();
        RecentRate rate = new RecentRate(now::get);
        assertThat(rate.perSecond()).isEmpty();
        assertThat(rate.remaining(182)).isEmpty();
        now.set(30 * S); // the first partition also started Spark
        rate.completed(1);
        assertThat(rate.perSecond()).as("from the start, to now").hasValue(1 / 30.0);
        for (int i = 2; i <= 61; i++) { // then one a second
            now.addAndGet(S);
            rate.completed(i);
        }
        // at 90 s the window reaches back a minute, to the first completion: Spark's start is no longer in it
        assertThat(rate.perSecond()).hasValue(1.0);
        assertThat(rate.remaining(182)).contains(Duration.ofSeconds(121));
        rate.completed(61); // the same count again changes nothing
        assertThat(rate.perSecond()).hasValue(1.0);
        now.set(150 * S); // a minute with no completion: the pace falls, measured to now (10 completions in 70 s)
        assertThat(rate.perSecond()).hasValue(10 / 70.0);
    }

    @Test
    void aWaveWhosePartitionsFinishTogetherGivesAPaceOfPartitionsPerMinute() {
        // the quickstart's console said 3735.0/min and 0:00:02 left after 110 s (43 of 182 done)
        AtomicLong now = new AtomicLong();
        RecentRate rate = new RecentRate(now::get);
        long ms = S / 1000;
        for (int i = 1; i <= 64; i++) { // a wave of 64 done at 110 s, 16 ms apart
            now.set(110 * S + i * 16 * ms);
            rate.completed(i);
        }
        assertThat(rate.perSecond().getAsDouble() * 60).isCloseTo(64 / 111.024 * 60, within(1e-9));
        assertThat(rate.remaining(182).orElseThrow()).isBetween(Duration.ofSeconds(200), Duration.ofSeconds(210));
        for (int i = 65; i <= 128; i++) { // the next wave at 220 s
            now.set(220 * S + (i - 64) * 16 * ms);
            rate.completed(i);
        }
        // from the last of the first wave (a minute and ten completions back) to now: 64 in 110 s
        assertThat(rate.perSecond().getAsDouble() * 60).isCloseTo(64 / 110.0 * 60, within(1e-9));
        assertThat(rate.remaining(182)).contains(Duration.ofMillis(Math.round(54 / (64 / 110.0) * 1000)));
    }
}
