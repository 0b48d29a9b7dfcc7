package dev.sluice.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.app.cli.ExitCodes;
import dev.sluice.app.cli.SluiceCommand;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.engine.warehouse.TableChecksum;
import dev.sluice.warehouse.Warehouse;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.SluiceEnvironment;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.Partition;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rerun publishes a new Gold version; {@code sluice rollback} publishes the previous one again,
 * atomically, checksum-identical to what it was, and records who and why; the same rollback again
 * is "already at version 1" (exit 0, nothing recorded).
 */
class RollbackIT {

    @TempDir
    Path specDir;

    private record Outcome(int code, String out, String err) {
    }

    private Outcome sluice(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = SluiceCommand.execute(new SluiceEnvironment(env), new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Outcome(code, out.toString(), err.toString());
    }

    @Test
    void rollbackRestoresThePreviousGoldVersion() throws Exception {
        Path spec = TestHome.copyFlightsSpec(specDir);
        String good = Files.readString(spec);
        Map<String, String> env = Map.of("SLUICE_HOME", TestHome.withSampleData().toString(),
                "SLUICE_WAREHOUSE_URL", TestHome.freshH2Url());
        String specPath = spec.toString();
        DatasetRef gold = DatasetRef.parse("gold.airport_daily_delays");
        Partition day = Partition.daily(LocalDate.parse("2001-07-01"));

        assertThat(sluice(env, "run", specPath, "--partition", "2001-07-01").code()).isZero();
        String v1 = checksum(env, spec, gold, day);

        Files.writeString(spec, good.replace("MAX(delay_min) AS max_delay_min", "MAX(delay_min) + 1 AS max_delay_min"));
        assertThat(sluice(env, "run", specPath, "--partition", "2001-07-01", "--rerun").code()).isZero();
        String v2 = checksum(env, spec, gold, day);
        assertThat(v2).isNotEqualTo(v1);

        Outcome back = sluice(env, "rollback", specPath, "gold.airport_daily_delays", "--partition", "2001-07-01",
                "--reason", "max_delay_min was off by one");
        assertThat(back.code()).as(back.err()).isZero();
        assertThat(back.out()).contains("published version 1 (was 2); kept versions [1, 2]");
        assertThat(checksum(env, spec, gold, day)).isEqualTo(v1);

        // the same command again, or asking for the version published: the wish is met, nothing changes, exit 0
        Outcome again = sluice(env, "rollback", specPath, "gold.airport_daily_delays", "--partition", "2001-07-01",
                "--reason", "max_delay_min was off by one");
        assertThat(again.code()).as(again.err()).isZero();
        assertThat(again.out()).startsWith("gold.airport_daily_delays partition 2001-07-01: already at version 1 (rolled back from 2 by "
                + System.getProperty("user.name") + " at ").contains("); nothing changed. Kept versions [1, 2]: --to-version V publishes another");
        Outcome same = sluice(env, "rollback", specPath, "gold.airport_daily_delays", "--partition", "2001-07-01",
                "--to-version", "1", "--reason", "x");
        assertThat(same.code()).as(same.err()).isZero();
        assertThat(same.out()).contains("already at version 1");
        assertThat(checksum(env, spec, gold, day)).isEqualTo(v1);

        Outcome missing = sluice(env, "rollback", specPath, "gold.airport_daily_delays", "--partition", "2001-07-01",
                "--to-version", "9", "--reason", "x");
        assertThat(missing.code()).as("a version not kept is a request that cannot be met, not a failed run").isEqualTo(ExitCodes.INVALID);
        assertThat(missing.err()).startsWith("sluice: --to-version: gold.airport_daily_delays partition 2001-07-01 does not keep version 9"
                + " (kept: [1, 2]");

        PipelineSpec s = TestHome.flightsSpec(env.get("SLUICE_WAREHOUSE_URL"), "sa", "");
        try (Warehouse w = Warehouse.open(s.warehouse())) {
            var log = w.dsl().resultQuery("SELECT dataset, partition_key, from_version, to_version, requested_by, reason"
                    + " FROM sluice.rollback_log").fetchOne();
            assertThat(log.intoList()).containsExactly("gold.airport_daily_delays", "2001-07-01", 1 + 1, 1,
                    System.getProperty("user.name"), "max_delay_min was off by one");
        }
    }

    private static String checksum(Map<String, String> env, Path spec, DatasetRef table, Partition p) {
        PipelineSpec s = new dev.sluice.config.PipelineSpecLoader(new SluiceEnvironment(env).interpolator()).load(spec);
        try (Warehouse w = Warehouse.open(s.warehouse())) {
            return TableChecksum.of(w.dsl(), s.table(table).orElseThrow(), p);
        }
    }
}
