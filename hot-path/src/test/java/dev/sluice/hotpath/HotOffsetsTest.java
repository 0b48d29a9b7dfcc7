package dev.sluice.hotpath;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The health values {@link HotOffsets} stores: the events/s moving average, a batch's latency, the watermark. */
class HotOffsetsTest {

    @Test
    void aSteadyRateConvergesToItselfAndDecaysWhenIdle() {
        Double r = null;
        for (int i = 0; i < 600; i++) { // 10 minutes of 500 events every second: 10 time constants
            r = HotOffsets.rate(r, 500, Duration.ofSeconds(1));
        }
        assertThat(r).isCloseTo(500.0, within(0.1));
        // the same rate in batches of 100 every 200 ms, or one batch of 30,000 a minute, reaches the same average
        Double fine = null;
        for (int i = 0; i < 3000; i++) {
            fine = HotOffsets.rate(fine, 100, Duration.ofMillis(200));
        }
        assertThat(fine).isCloseTo(500.0, within(0.1));
        // a first store after one time constant of 0 events/s: the weight of the new interval is 1 - 1/e
        assertThat(HotOffsets.rate(null, 600, Duration.ofSeconds(60))).isCloseTo(10 * (1 - Math.exp(-1)), within(1e-12));
        // idle for one time constant: 1/e of it is left
        assertThat(HotOffsets.rateAt(500, Duration.ofSeconds(60))).isCloseTo(500 * Math.exp(-1), within(1e-9));
        assertThat(HotOffsets.rateAt(500, Duration.ZERO)).isEqualTo(500);
    }

    @Test
    void aBatchLatencyIsItsGreatestAndMedianAge() {
        PartitionRead read = new PartitionRead(10, 3L, new long[] {1_000, 400, -1, 900, 700});
        PartitionRead.Latency l = read.latencyMs(1_000);
        assertThat(l.maxMs()).isEqualTo(600); // the record at 400 ms
        assertThat(l.p50Ms()).isEqualTo(100); // ages 0, 100, 300, 600: the lower median; the record without a timestamp left out
        assertThat(new PartitionRead(1, null, new long[] {2_000}).latencyMs(1_000).maxMs()).as("a producer clock ahead").isZero();
        assertThat(PartitionRead.at(5).latencyMs(1_000)).isEqualTo(new PartitionRead.Latency(null, null));
    }

    @Test
    void theWatermarkWaitsForEveryPartition() {
        OffsetDateTime t = OffsetDateTime.parse("2001-01-02T00:00:00Z");
        var one = Map.of(0, new HotOffsets.Stored(5, 1_000L, t, null), 1, new HotOffsets.Stored(3, null, t, null));
        assertThat(HotOffsets.watermark(one, 2, Duration.ofSeconds(10))).isEqualTo(Long.MIN_VALUE);
        var both = Map.of(0, new HotOffsets.Stored(5, 1_000L, t, null), 1, new HotOffsets.Stored(3, 700L, t, null));
        assertThat(HotOffsets.watermark(both, 2, Duration.ofSeconds(10))).isEqualTo(690);
    }
}
