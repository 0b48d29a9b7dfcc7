package dev.sluice.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.app.cli.SluiceCommand;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.SluiceEnvironment;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.warehouse.Warehouse;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice quarantine reprocess} over batch rows, on a real day: 2001-02-22 quarantines one
 * flight (EWR → MCO, delay −953 min) as delay_out_of_range. The rule is then widened to −1000 min
 * (a data owner's decision, in the spec), and reprocess re-runs the day's Silver and what is
 * downstream from the Bronze rows kept: the entry is REPROCESSED, the flight is in Silver once, EWR
 * has one flight more in the mart. A second reprocess finds nothing to do and changes nothing.
 */
class QuarantineReprocessIT {

    @TempDir
    Path home;

    @TempDir
    Path pipelines;

    @Test
    void aWidenedRuleLetsTheQuarantinedFlightThroughOnce() throws Exception {
        Files.createSymbolicLink(home.resolve("landing"), TestHome.withSampleData().resolve("landing"));
        Path spec = TestHome.copyFlightsSpec(pipelines);
        SluiceEnvironment env = new SluiceEnvironment(Map.of("SLUICE_HOME", home.toString(), "SLUICE_WAREHOUSE_URL", TestHome.freshH2Url(),
                "SLUICE_PIPELINES", pipelines.toString()));
        assertThat(sluice(env, "run", "flights", "--partition", "2001-02-22")).startsWith("0 ");
        try (Warehouse w = Warehouse.open(new PipelineSpecLoader(env.interpolator()).load(spec).warehouse())) {
            DSLContext dsl = w.dsl();
            String entry = "SELECT rule_id || ' ' || status FROM sluice.quarantine WHERE partition_key = '2001-02-22'";
            assertThat(dsl.resultQuery(entry).fetch(0, String.class)).containsExactly("delay_out_of_range OPEN");
            String ewr = "SELECT flights FROM gold.airport_daily_delays WHERE flight_date = DATE '2001-02-22' AND origin = 'EWR'";
            long before = dsl.resultQuery(ewr).fetchOne(0, Long.class);
            String flight = "SELECT COUNT(*) FROM silver.flights WHERE flight_date = DATE '2001-02-22' AND origin = 'EWR'"
                    + " AND destination = 'MCO' AND delay_min = -953";
            assertThat(dsl.resultQuery(flight).fetchOne(0, Long.class)).isZero();

            String yaml = Files.readString(spec);
            assertThat(yaml).contains("when: delay < -120 OR delay > 2880");
            Files.writeString(spec, yaml.replace("when: delay < -120 OR delay > 2880", "when: delay < -1000 OR delay > 2880"));
            assertThat(sluice(env, "quarantine", "reprocess", "flights")).startsWith("0 ")
                    .contains("batch 2001-02-22: re-ran silver.flights, gold.airport_daily_delays, gold.route_daily, gold.airport_monthly_delays (COMPLETED,")
                    .contains("1 of 1 OPEN row(s) now pass (REPROCESSED), 0 still OPEN");
            assertThat(dsl.resultQuery(entry).fetch(0, String.class)).containsExactly("delay_out_of_range REPROCESSED");
            assertThat(dsl.resultQuery(flight).fetchOne(0, Long.class)).isOne();
            assertThat(dsl.resultQuery(ewr).fetchOne(0, Long.class)).isEqualTo(before + 1);
            String versions = "SELECT dataset || ' ' || MAX(version) FROM sluice.partition_version WHERE partition_key = '2001-02-22'"
                    + " GROUP BY dataset ORDER BY 1";
            var afterFirst = dsl.resultQuery(versions).fetch(0, String.class);
            assertThat(afterFirst).contains("silver.flights 2", "gold.airport_daily_delays 2");

            assertThat(sluice(env, "quarantine", "reprocess", "flights")).startsWith("0 ")
                    .contains("batch: no partition of flights has OPEN quarantined rows");
            assertThat(dsl.resultQuery(versions).fetch(0, String.class)).as("nothing re-run").isEqualTo(afterFirst);
            assertThat(dsl.resultQuery(flight).fetchOne(0, Long.class)).isOne();
        }
    }

    /** Runs a sluice command in this JVM: "<exit code> <stdout>". */
    private static String sluice(SluiceEnvironment env, String... args) {
        StringWriter out = new StringWriter();
        int code = SluiceCommand.execute(env, new PrintWriter(out, true), new PrintWriter(out, true), args);
        return code + " " + out;
    }
}
