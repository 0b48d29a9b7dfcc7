package dev.sluice.batch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.backfill.Backfill;
import dev.sluice.batch.backfill.BackfillReport;
import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.testkit.PricesPipeline;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.PipelineSpec;
import dev.sluice.warehouse.Warehouse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A snapshot ({@code partition: none}) written {@code merge-on-key} from a daily input, with a
 * gate, backfilled over four days asked at parallelism 2 in one wave: each day's version is built
 * on the one published before it, so the snapshot ends with every day's keys, a key a later day
 * changed at that day's value. Before the backfill ran such pipelines one partition at a time, the
 * days of a wave each built on the version published before the wave: one such backfill completed
 * with the snapshot holding one day's keys ({@code [c]}), another failed a day on a race to publish.
 */
class MergeOnKeySnapshotIT {

    @TempDir
    Path home;

    /**
     * A day whose gate fails stops the backfill there: the later days are not started (STOPPED), the
     * snapshot keeps the days before it, and the backfill invoked again with the check fixed restarts
     * the day's gate and then runs the later days in order.
     */
    @Test
    void aDayThatFailsStopsTheLaterDaysAndTheResumeContinuesInOrder() throws Exception {
        Path spec = PricesPipeline.accumulatingOnWarehouse(home, 1000);
        land("code,price\na,10\n", "code,price\nb,2000\n", "code,price\nc,30\na,11\n", "code,price\nd,40\n");
        PipelineSpec strict = TestHome.load(home, spec);
        try (Warehouse w = Warehouse.open(strict.warehouse(), 8)) {
            Backfill backfill = new Backfill(new PipelineRunner(w, home), Clock.systemUTC());
            BackfillReport first = backfillFourDays(backfill, strict);
            assertThat(first.status().name()).isEqualTo("FAILED");
            assertThat(first.outcomes()).extracting(o -> o.partition() + " " + o.status())
                    .containsExactly("2001-03-01 COMPLETED", "2001-03-02 FAILED", "2001-03-03 STOPPED", "2001-03-04 STOPPED");
            assertThat(first.outcomes().get(2).message()).isEqualTo("not started: 2001-03-02 did not complete (FAILED), and silver.prices"
                    + " is built one partition after another (invoking the backfill again continues it)");
            String snapshot = "SELECT code || '=' || price FROM silver.prices ORDER BY code";
            assertThat(w.dsl().resultQuery(snapshot).fetch(0, String.class)).containsExactly("a=10");

            Files.writeString(spec, Files.readString(spec).replace("max_value: 1000}", "max_value: 5000}"));
            PipelineSpec fixed = TestHome.load(home, spec);
            BackfillReport second = backfillFourDays(backfill, fixed);
            assertThat(second.status().name()).as("%s", second.outcomes()).isEqualTo("COMPLETED");
            assertThat(w.dsl().resultQuery(snapshot).fetch(0, String.class)).containsExactly("a=11", "b=2000", "c=30", "d=40");
        }
    }

    @Test
    void everyDaysKeysReachTheSnapshot() throws Exception {
        Path spec = PricesPipeline.accumulatingOnWarehouse(home, 1000);
        land("code,price\na,10\n", "code,price\nb,20\n", "code,price\nc,30\na,11\n", "code,price\nd,40\n");
        PipelineSpec s = TestHome.load(home, spec);
        try (Warehouse w = Warehouse.open(s.warehouse(), 8)) {
            BackfillReport report = backfillFourDays(new Backfill(new PipelineRunner(w, home), Clock.systemUTC()), s);
            assertThat(report.status().name()).as("%s", report.outcomes()).isEqualTo("COMPLETED");
            assertThat(w.dsl().resultQuery("SELECT code || '=' || price FROM silver.prices ORDER BY code").fetch(0, String.class))
                    .containsExactly("a=11", "b=20", "c=30", "d=40");
            assertThat(w.dsl().resultQuery("SELECT codes || ' ' || total FROM gold.price_total WHERE _partition = '2001-03-04'")
                    .fetch(0, String.class)).as("the last day's mart counts every key").containsExactly("4 101");
        }
    }

    /** Lands one CSV file per day, 2001-03-01 onwards, with the given contents. */
    private void land(String... days) throws java.io.IOException {
        for (int i = 0; i < days.length; i++) {
            Path day = Files.createDirectories(home.resolve("landing/prices/dt=2001-03-0" + (i + 1)));
            Files.writeString(day.resolve("prices.csv"), days[i]);
        }
    }

    /** 2001-03-01..04 backfilled, asked at parallelism 2 in one wave of four. */
    private static BackfillReport backfillFourDays(Backfill backfill, PipelineSpec spec) {
        return backfill.run(spec, backfill.plan(spec, LocalDate.parse("2001-03-01"), LocalDate.parse("2001-03-04"), false),
                new Backfill.Options(2, 4, "test"), Backfill.Progress.NONE);
    }
}
