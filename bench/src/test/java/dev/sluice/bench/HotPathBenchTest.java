package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A smoke run of {@link HotPathBench} (5,000 events; 1,000 events/s for 3 s) so that the bench does not rot; the figures are not judged here. */
class HotPathBenchTest {

    @Test
    void aSmallThroughputAndLatencyRunCompletesAndIsMeasured(@TempDir Path work) throws Exception {
        HotPathBench.Result r = HotPathBench.measure(HotPathBench.root(), work, 5_000, 1_000, 3, 1);
        assertThat(r.rawEventsPerSecond()).hasSize(1).allSatisfy(v -> assertThat(v).isPositive());
        assertThat(r.sinkEventsPerSecond()).hasSize(1).allSatisfy(v -> assertThat(v).isPositive());
        assertThat(r.latencyP99Ms()).hasSize(1).allSatisfy(v -> assertThat(v).isGreaterThanOrEqualTo(r.latencyP50Ms().get(0)));
    }
}
