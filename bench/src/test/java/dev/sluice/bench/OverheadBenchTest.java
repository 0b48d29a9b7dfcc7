package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A smoke run of {@link OverheadBench} (a few partitions) so that the bench does not rot; the figure itself is not judged here. */
class OverheadBenchTest {

    @Test
    void aSmallBackfillOfTrivialPartitionsCompletesAndIsMeasured(@TempDir Path work) throws Exception {
        OverheadBench.Result r = OverheadBench.measure(work, 4, 1, 1);
        assertThat(r.partitions()).isEqualTo(4);
        assertThat(r.msPerPartition()).hasSize(1).allSatisfy(ms -> assertThat(ms).isPositive());
    }
}
