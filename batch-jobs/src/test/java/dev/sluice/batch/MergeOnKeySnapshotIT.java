package dev.sluice.batch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.backfill.Backfill;
import dev.sluice.batch.backfill.BackfillReport;
import dev.sluice.batch.job.PipelineRunner;
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

    private static final String CONTRACT = "contract: prices\nversion: 1\ncolumns:\n"
            + "  - {name: code, type: string, nullable: false}\n  - {name: price, type: long, nullable: false}\n";

    private static final String SPEC = """
            pipeline: prices
            warehouse: {url: "${SLUICE_WAREHOUSE_URL}", user: sa, password: ""}
            sources:
              - {name: prices, format: csv, path: "${SLUICE_HOME}/landing/prices/dt={partition}", contract: contracts/prices.v1.yaml}
            layers:
              bronze: [{table: bronze.prices_raw, source: prices}]
              silver:
                - table: silver.prices
                  input: bronze.prices_raw
                  partition: none
                  write: merge-on-key
                  key: [code]
                  columns: {code: string, price: long}
                  sql: SELECT code, price FROM {input} p
                  checks:
                    - {id: rows, expect: expect_table_row_count_to_be_between, min_value: 1}
                    - {id: price_plausible, expect: expect_column_values_to_be_between, column: price, min_value: 0, max_value: 1000}
              gold:
                - table: gold.price_total
                  input: silver.prices
                  partition: daily
                  write: overwrite-partition
                  key: [codes]
                  columns: {codes: long, total: long}
                  sql: SELECT COUNT(*) AS codes, SUM(price) AS total FROM {input} s
            """;

    /**
     * A day whose gate fails stops the backfill there: the later days are not started (STOPPED), the
     * snapshot keeps the days before it, and the backfill invoked again with the check fixed restarts
     * the day's gate and then runs the later days in order.
     */
    @Test
    void aDayThatFailsStopsTheLaterDaysAndTheResumeContinuesInOrder() throws Exception {
        Path spec = TestHome.writePipeline(home, "prices", CONTRACT, SPEC);
        String[] days = {"code,price\na,10\n", "code,price\nb,2000\n", "code,price\nc,30\na,11\n", "code,price\nd,40\n"};
        for (int i = 0; i < days.length; i++) {
            Path day = Files.createDirectories(home.resolve("landing/prices/dt=2001-03-0" + (i + 1)));
            Files.writeString(day.resolve("prices.csv"), days[i]);
        }
        PipelineSpec strict = TestHome.load(home, spec);
        LocalDate from = LocalDate.parse("2001-03-01");
        LocalDate to = LocalDate.parse("2001-03-04");
        try (Warehouse w = Warehouse.open(strict.warehouse(), 8)) {
            Backfill backfill = new Backfill(new PipelineRunner(w, home), Clock.systemUTC());
            BackfillReport first = backfill.run(strict, backfill.plan(strict, from, to, false), new Backfill.Options(2, 4, "test"),
                    Backfill.Progress.NONE);
            assertThat(first.status().name()).isEqualTo("FAILED");
            assertThat(first.outcomes()).extracting(o -> o.partition() + " " + o.status())
                    .containsExactly("2001-03-01 COMPLETED", "2001-03-02 FAILED", "2001-03-03 STOPPED", "2001-03-04 STOPPED");
            assertThat(first.outcomes().get(2).message()).isEqualTo("not started: 2001-03-02 did not complete (FAILED), and silver.prices"
                    + " is built one partition after another (invoking the backfill again continues it)");
            String snapshot = "SELECT code || '=' || price FROM silver.prices ORDER BY code";
            assertThat(w.dsl().resultQuery(snapshot).fetch(0, String.class)).containsExactly("a=10");

            Files.writeString(spec, Files.readString(spec).replace("max_value: 1000}", "max_value: 5000}"));
            PipelineSpec fixed = TestHome.load(home, spec);
            BackfillReport second = backfill.run(fixed, backfill.plan(fixed, from, to, false), new Backfill.Options(2, 4, "test"),
                    Backfill.Progress.NONE);
            assertThat(second.status().name()).as("%s", second.outcomes()).isEqualTo("COMPLETED");
            assertThat(w.dsl().resultQuery(snapshot).fetch(0, String.class)).containsExactly("a=11", "b=2000", "c=30", "d=40");
        }
    }

    @Test
    void everyDaysKeysReachTheSnapshot() throws Exception {
        Path spec = TestHome.writePipeline(home, "prices", CONTRACT, SPEC);
        String[] days = {"code,price\na,10\n", "code,price\nb,20\n", "code,price\nc,30\na,11\n", "code,price\nd,40\n"};
        for (int i = 0; i < days.length; i++) {
            Path day = Files.createDirectories(home.resolve("landing/prices/dt=2001-03-0" + (i + 1)));
            Files.writeString(day.resolve("prices.csv"), days[i]);
        }
        PipelineSpec s = TestHome.load(home, spec);
        try (Warehouse w = Warehouse.open(s.warehouse(), 8)) {
            Backfill backfill = new Backfill(new PipelineRunner(w, home), Clock.systemUTC());
            BackfillReport report = backfill.run(s, backfill.plan(s, LocalDate.parse("2001-03-01"), LocalDate.parse("2001-03-04"), false),
                    new Backfill.Options(2, 4, "test"), Backfill.Progress.NONE);
            assertThat(report.status().name()).as("%s", report.outcomes()).isEqualTo("COMPLETED");
            assertThat(w.dsl().resultQuery("SELECT code || '=' || price FROM silver.prices ORDER BY code").fetch(0, String.class))
                    .containsExactly("a=11", "b=20", "c=30", "d=40");
            assertThat(w.dsl().resultQuery("SELECT codes || ' ' || total FROM gold.price_total WHERE _partition = '2001-03-04'")
                    .fetch(0, String.class)).as("the last day's mart counts every key").containsExactly("4 101");
        }
    }
}
