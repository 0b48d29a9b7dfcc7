package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The latency summary: nearest-rank percentiles, the warm-up cut in recorded order. */
class LatenciesTest {

    @Test
    void nearestRankOfOneToAHundred() {
        long[] ms = new long[100];
        for (int i = 0; i < 100; i++) {
            ms[i] = 100 - i; // recorded in descending order: the summary sorts a copy
        }
        Latencies l = Latencies.of(ms, 100, 0);
        assertThat(l).isEqualTo(new Latencies(100, 50, 99, 100, 0));
        assertThat(ms[0]).isEqualTo(100); // the caller's array is not sorted in place
    }

    @Test
    void theFirstFifthIsTheWarmUpAndOnlyCountSamplesAreRead() {
        // 10 samples recorded: 2 slow warm-up ones, then 8; 5 unused slots after them
        long[] ms = {900, 800, 10, 20, 30, 40, 50, 60, 70, 80, 7_777, 7_777, 7_777, 7_777, 7_777};
        Latencies l = Latencies.of(ms, 10, 0.2);
        assertThat(l.samples()).isEqualTo(8);
        assertThat(l.p50Ms()).isEqualTo(40); // ceil(0.5 × 8) = 4th of 10..80
        assertThat(l.p99Ms()).isEqualTo(80); // ceil(0.99 × 8) = 8th
        assertThat(l.maxMs()).isEqualTo(80);
        assertThat(l.warmUpP99Ms()).isEqualTo(900);
    }

    @Test
    void oneSampleIsEveryPercentile() {
        assertThat(Latencies.of(new long[] {42}, 1, 0.2)).isEqualTo(new Latencies(1, 42, 42, 42, 0));
    }

    @Test
    void refusesNoSampleAndABadShare() {
        assertThatThrownBy(() -> Latencies.of(new long[4], 0, 0.2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no latency sample");
        assertThatThrownBy(() -> Latencies.of(new long[4], 4, 1.0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Latencies.of(new long[4], 5, 0.2)).isInstanceOf(IllegalArgumentException.class);
    }
}
