package dev.sluice.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.app.cli.SluiceCommand;
import dev.sluice.batch.testkit.PricesPipeline;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.SluiceEnvironment;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice backfill} of a pipeline with an accumulating snapshot ({@code silver.prices}, a
 * {@code merge-on-key} snapshot of daily prices; {@link PricesPipeline#accumulatingOnWarehouse}):
 * the printed plan says the partitions run one at a time and why, and a backfill whose second day
 * fails its gate exits 1, the later days not started.
 */
class BackfillCliIT {

    @TempDir
    Path home;

    @Test
    void thePlanSaysOnePartitionAtATimeAndAFailedDayExitsOne() throws IOException {
        Path spec = PricesPipeline.accumulatingOnWarehouse(home, 1000);
        Files.writeString(spec, Files.readString(spec) + "backfill_window: P100000D\ndesign_exemptions:\n"
                + "  - {rule: gates.source, reason: a test of the backfill command}\n"
                + "  - {rule: gates.sink, reason: a test of the backfill command}\n"
                + "  - {rule: raw.retention, reason: a test of the backfill command}\n");
        String[] days = {"code,price\na,10\n", "code,price\nb,2000\n", "code,price\nc,30\n"};
        for (int i = 0; i < days.length; i++) {
            Path day = Files.createDirectories(home.resolve("landing/prices/dt=2001-03-0" + (i + 1)));
            Files.writeString(day.resolve("prices.csv"), days[i]);
        }
        SluiceEnvironment env = new SluiceEnvironment(Map.of("SLUICE_HOME", home.toString(), "SLUICE_PIPELINES", spec.getParent().toString(),
                "SLUICE_WAREHOUSE_URL", TestHome.freshH2Url()));
        String oneAtATime = "parallelism 1; quality gates judged in waves of 1 partition(s) (asked: parallelism 2, waves of 64; one partition"
                + " at a time, in order: silver.prices is a snapshot written merge-on-key from the partitioned bronze.prices_raw, and each"
                + " partition's version is built on the one published before it)\n";

        Result plan = sluice(env, "backfill", "prices", "--from", "2001-03-01", "--to", "2001-03-03", "--parallelism", "2", "--gate-batch", "64",
                "--dry-run");
        assertThat(plan.code).as(plan.all()).isZero();
        assertThat(plan.out).contains(oneAtATime);

        Result run = sluice(env, "backfill", "prices", "--from", "2001-03-01", "--to", "2001-03-03", "--parallelism", "2", "--gate-batch", "64");
        assertThat(run.code).as(run.all()).isOne();
        assertThat(run.out).contains(oneAtATime);
        assertThat(run.out).containsPattern("(?m)^2001-03-01 +COMPLETED +1 ").containsPattern("(?m)^2001-03-02 +FAILED +1 ")
                .contains("\n2001-03-03   STOPPED    not started: 2001-03-02 did not complete (FAILED), and silver.prices is built one"
                        + " partition after another (invoking the backfill again continues it)\n")
                .contains("\n2001-03-02: step gate.silver.prices failed: silver.prices partition none: check price_plausible"
                        + " (expect_column_values_to_be_between) failed: 1 of 2 value(s) unexpected (50.000 %), e.g. [2000]")
                .containsPattern("\nbackfill [0-9a-f-]{36} FAILED: 3 partition\\(s\\) in ");
    }

    private record Result(int code, String out, String err) {
        String all() {
            return "exit " + code + "\n" + out + err;
        }
    }

    private static Result sluice(SluiceEnvironment env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = SluiceCommand.execute(env, new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Result(code, out.toString(), err.toString());
    }
}
