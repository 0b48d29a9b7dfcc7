package dev.sluice.batch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.batch.testkit.PricesPipeline;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.Partition;
import dev.sluice.warehouse.Warehouse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code write: merge-on-key}: a re-run of a partition whose landed file now holds b (changed) and
 * c (new) but no longer a publishes a version with a (carried from the published version), b as
 * now and c: the old version upserted by key. The overwrite-partition Gold table built from it
 * counts all three. A second identical re-run changes nothing but the version number.
 */
class MergeOnKeyIT {

    @TempDir
    Path home;

    @Test
    void aRerunUpsertsByKeyAndKeepsRowsTheNewLoadLacks() throws Exception {
        Path spec = PricesPipeline.onWarehouse(home);
        Path day = Files.createDirectories(home.resolve("landing/prices/dt=2001-03-01"));
        Files.writeString(day.resolve("prices.csv"), "code,price\na,10\nb,20\n");
        PipelineSpec s = TestHome.load(home, spec);
        assertThat(s.table(dev.sluice.core.DatasetRef.parse("silver.prices")).orElseThrow().mergeOnKey()).isTrue();
        Partition p = new Partition("2001-03-01");
        try (Warehouse w = Warehouse.open(s.warehouse())) {
            PipelineRunner runner = new PipelineRunner(w, home);
            assertThat(runner.run(s, p, RunOptions.plain()).status().name()).isEqualTo("COMPLETED");
            String silver = "SELECT code || '=' || price FROM silver.prices ORDER BY code";
            assertThat(w.dsl().resultQuery(silver).fetch(0, String.class)).containsExactly("a=10", "b=20");

            Files.writeString(day.resolve("prices.csv"), "code,price\nb,25\nc,30\n");
            assertThat(runner.run(s, p, RunOptions.plain().withRerun(true)).status().name()).isEqualTo("COMPLETED");
            assertThat(w.dsl().resultQuery(silver).fetch(0, String.class)).containsExactly("a=10", "b=25", "c=30");
            assertThat(w.dsl().resultQuery("SELECT codes || ' ' || total FROM gold.price_total").fetch(0, String.class)).containsExactly("3 65");
            assertThat(w.dsl().resultQuery("SELECT _version, COUNT(*) FROM silver.prices_versions GROUP BY _version ORDER BY 1")
                    .fetch(r -> r.get(0) + ":" + r.get(1))).containsExactly("1:2", "2:3");

            assertThat(runner.run(s, p, RunOptions.plain().withRerun(true)).status().name()).isEqualTo("COMPLETED");
            assertThat(w.dsl().resultQuery(silver).fetch(0, String.class)).as("idempotent").containsExactly("a=10", "b=25", "c=30");
        }
    }
}
