package dev.sluice.batch.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.testkit.PricesPipeline;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.PipelineSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which pipelines a backfill runs one partition at a time ({@link Backfill#effective},
 * {@link Backfill#oneAtATime}): those with a snapshot built from partitioned data, directly or
 * through a snapshot in between, whatever its write mode; not the daily prices pipeline.
 */
class OneAtATimeTest {

    @TempDir
    Path home;

    private final Backfill.Options asked = new Backfill.Options(2, 64, "test");

    @Test
    void aDailyMergeOnKeyTableRunsAsAsked() {
        PipelineSpec daily = TestHome.load(home, PricesPipeline.onWarehouse(home));
        assertThat(Backfill.oneAtATime(daily)).isEmpty();
        assertThat(Backfill.effective(daily, asked)).isSameAs(asked);
    }

    @Test
    void aMergeOnKeySnapshotOfAPartitionedInputRunsOneAtATime() {
        PipelineSpec spec = TestHome.load(home, PricesPipeline.accumulatingOnWarehouse(home, 1000));
        assertThat(Backfill.oneAtATime(spec)).contains("silver.prices is a snapshot written merge-on-key from the partitioned"
                + " bronze.prices_raw, and each partition's version is built on the one published before it");
        assertThat(Backfill.effective(spec, asked)).isEqualTo(new Backfill.Options(1, 1, "test"));
    }

    /** Gold merged by key from Silver, itself a snapshot rebuilt from each day's Bronze (named first, as the first one found). */
    @Test
    void aMergeOnKeySnapshotOfASnapshotOfPartitionedDataRunsOneAtATime() throws IOException {
        Path file = PricesPipeline.onWarehouse(home);
        String spec = Files.readString(file);
        String silver = "      partition: daily\n      write: merge-on-key\n";
        String gold = "      partition: daily\n      write: overwrite-partition\n";
        assertThat(spec).contains(silver, gold);
        Files.writeString(file, spec.replace(silver, "      partition: none\n      write: overwrite-partition\n")
                .replace(gold, "      partition: none\n      write: merge-on-key\n"));
        PipelineSpec transitive = TestHome.load(home, file);
        assertThat(Backfill.oneAtATime(transitive)).contains("silver.prices is a snapshot written overwrite-partition from the partitioned"
                + " bronze.prices_raw, and each partition's version replaces it, so the last partition must be published last");
        assertThat(Backfill.effective(transitive, asked)).isEqualTo(new Backfill.Options(1, 1, "test"));
    }
}
