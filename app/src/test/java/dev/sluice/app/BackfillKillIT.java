package dev.sluice.app;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A backfill killed (SIGKILL) in the middle — one partition inside its Gold transaction while the
 * others of its wave wait at a gate or have completed — is continued by the same command: same
 * backfill, two invocations, every partition's Silver and Gold checksum-identical to an
 * uninterrupted backfill, no duplicate Bronze row, and the quality results of a one-pass wave.
 * Killed twice in a row at the wave's rollup barrier (where the month's days wait for the one of
 * them that rebuilds {@code gold.airport_monthly_delays}), the third invocation ends with the same
 * month as the uninterrupted backfill.
 */
class BackfillKillIT {

    private static final String ROLLUP_BARRIER = "wave:gold.airport_monthly_delays";

    private static final LocalDate FROM = LocalDate.parse("2001-03-01");
    private static final LocalDate TO = LocalDate.parse("2001-03-04");
    private static final List<String> TABLES = List.of("silver.flights", "gold.airport_daily_delays", "gold.route_daily");
    private static final String[] BACKFILL = {"backfill", "flights", "--from", FROM.toString(), "--to", TO.toString(),
        "--parallelism", "2", "--gate-batch", "4"};

    private static Map<String, String> env(String url) {
        return Map.of("SLUICE_HOME", TestHome.withSampleData().toString(), "SLUICE_WAREHOUSE_URL", url,
                "SLUICE_PIPELINES", TestHome.projectRoot().resolve("pipelines").toString());
    }

    private static String backfillInProcess(String url) {
        StringWriter out = new StringWriter();
        int code = SluiceCommand.execute(new SluiceEnvironment(env(url)), new PrintWriter(out, true),
                new PrintWriter(new StringWriter(), true), BACKFILL);
        assertThat(code).as("%s", out).isZero();
        return out.toString();
    }

    private static Map<String, String> state(String url) {
        PipelineSpec spec = TestHome.flightsSpec(url, "sa", "");
        Map<String, String> sums = new LinkedHashMap<>();
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            for (LocalDate d = FROM; !d.isAfter(TO); d = d.plusDays(1)) {
                for (String t : TABLES) {
                    sums.put(t + " " + d, TableChecksum.of(w.dsl(), spec.table(DatasetRef.parse(t)).orElseThrow(), Partition.daily(d)));
                }
            }
            sums.put("gold.airport_monthly_delays 2001-03", TableChecksum.of(w.dsl(),
                    spec.table(DatasetRef.parse("gold.airport_monthly_delays")).orElseThrow(), Partition.parseAny("2001-03")));
            sums.put("monthly rows", w.dsl().resultQuery("SELECT COUNT(*) || ' ' || SUM(flights) || ' ' || MAX(days) FROM gold.airport_monthly_delays"
                    + " WHERE flight_month = '2001-03'").fetchOne(0, String.class));
            sums.put("bronze rows", Long.toString(w.dsl().fetchCount(w.dsl().selectFrom("bronze.flights_raw"))));
            sums.put("distinct bronze rows", w.dsl().resultQuery(
                    "SELECT COUNT(*) FROM (SELECT DISTINCT _partition, _source_pos FROM bronze.flights_raw) d").fetchOne(0, String.class));
            sums.put("quality", String.join("\n", w.dsl().resultQuery("SELECT r.partition_key || ' ' || r.check_id || ' ' || r.status"
                    + " || ' ' || COALESCE(CAST(r.metric AS VARCHAR(40)), '-') FROM sluice.quality_results r WHERE r.result_id ="
                    + " (SELECT MAX(x.result_id) FROM sluice.quality_results x WHERE x.dataset = r.dataset AND x.partition_key ="
                    + " r.partition_key AND x.check_id = r.check_id) ORDER BY r.dataset, r.partition_key, r.check_id").fetch(0, String.class)));
        }
        return sums;
    }

    private static Map<String, String> expected;

    @BeforeAll
    static void uninterrupted() {
        String reference = TestHome.freshH2Url();
        backfillInProcess(reference);
        expected = state(reference);
        assertThat(expected.get("bronze rows")).isEqualTo(expected.get("distinct bronze rows"));
        assertThat(expected.get("monthly rows")).as("the month holds the four days").matches("[1-9]\\d* [1-9]\\d* 4");
    }

    @Test
    void aBackfillKilledMidwayIsContinuedByTheSameCommandToTheSameResult() throws Exception {
        String url = TestHome.freshH2Url() + ";WRITE_DELAY=0";
        FaultPointKill.killAt("in-transaction:gold.route_daily#2", env(url), BACKFILL);

        continuesToTheUninterruptedResult(url, 2);
    }

    /** The same command run on {@code url} ends the backfill, its {@code invocations}-th, with the uninterrupted backfill's state. */
    private static void continuesToTheUninterruptedResult(String url, int invocations) {
        String out = backfillInProcess(url);
        assertThat(out).contains("(continued)").contains("COMPLETED: 4 partition(s)");
        assertThat(state(url)).isEqualTo(expected);
        PipelineSpec spec = TestHome.flightsSpec(url, "sa", "");
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            assertThat(w.dsl().resultQuery("SELECT status || ' ' || invocations FROM sluice.backfill").fetch(0, String.class))
                    .containsExactly("COMPLETED " + invocations);
        }
    }

    @Test
    void aBackfillKilledTwiceAtTheRollupBarrierEndsWithTheSameMonth() throws Exception {
        String url = TestHome.freshH2Url() + ";WRITE_DELAY=0";
        FaultPointKill.killAt(ROLLUP_BARRIER, env(url), BACKFILL); // the first day at the barrier
        FaultPointKill.killAt(ROLLUP_BARRIER + "#2", env(url), BACKFILL); // the continuation, a second day there

        continuesToTheUninterruptedResult(url, 3);
    }
}
