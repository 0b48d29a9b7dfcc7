package dev.sluice.batch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.backfill.Backfill;
import dev.sluice.batch.backfill.BackfillPlan;
import dev.sluice.batch.backfill.BackfillReport;
import dev.sluice.batch.backfill.PartitionOutcome;
import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.lineage.store.LineageRepository;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.warehouse.Warehouse;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.Partition;
import java.time.Clock;
import java.time.LocalDate;
import java.util.List;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;

/**
 * A backfill planned from a change ({@code sluice backfill --changed}) over the real flights data
 * of four days across a month boundary: it re-runs exactly the downstream partitions built from
 * the changed days (the daily marts of those days, then the two months they feed) and nothing else,
 * finds from lineage a foreign dataset it cannot re-run, and its partition runs are its children.
 */
class ChangedBackfillIT {

    private static final List<String> DAILY_MARTS = List.of("gold.airport_daily_delays", "gold.route_daily");
    private static final List<String> MONTHLY = List.of("gold.airport_monthly_delays");

    @Test
    void aChangedDayReRunsItsDailyMartsThenTheMonthItFeedsAndNothingElse() throws Exception {
        PipelineSpec spec = TestHome.flightsSpec(TestHome.freshH2Url(), "sa", "");
        try (Warehouse w = Warehouse.open(spec.warehouse(), 8)) {
            PipelineRunner runner = new PipelineRunner(w, TestHome.withSampleData());
            for (String d : List.of("2001-01-30", "2001-01-31", "2001-02-01", "2001-02-02")) {
                assertThat(runner.run(spec, new Partition(d), RunOptions.plain()).status().name()).isEqualTo("COMPLETED");
            }
            DSLContext dsl = w.dsl();
            // each day's run rebuilt its month from the month's published days
            assertThat(monthlyFlights(dsl, "2001-01")).isEqualTo(dailyFlights(dsl, "2001-01-30", "2001-01-31")).isPositive();
            assertThat(published(dsl, "gold.airport_monthly_delays", "2001-01")).isEqualTo(2);
            // lineage maps a day onto the month it feeds
            assertThat(new LineageRepository(dsl).impact("silver.flights", "2001-01-31"))
                    .extracting(i -> i.dataset() + "@" + i.partition() + " level " + i.level())
                    .containsExactlyInAnyOrder("gold.airport_daily_delays@2001-01-31 level 1", "gold.route_daily@2001-01-31 level 1",
                            "gold.airport_monthly_delays@2001-01 level 2");
            // another tool reads a daily mart (an OpenLineage event it sent to Sluice's ingest)
            new LineageRepository(dsl).storeForeign(new com.fasterxml.jackson.databind.ObjectMapper().readTree(FOREIGN), FOREIGN);

            Backfill backfill = new Backfill(runner, Clock.systemUTC());
            BackfillPlan plan = backfill.planChanged(spec, DatasetRef.parse("silver.flights"), LocalDate.parse("2001-01-31"),
                    LocalDate.parse("2001-02-01"));
            assertThat(plan.partitions()).extracting(p -> p.partition() + " " + p.action() + " " + p.tables()).containsExactly(
                    "2001-01-31 RERUN " + DAILY_MARTS, "2001-02-01 RERUN " + DAILY_MARTS,
                    "2001-01 RUN " + MONTHLY, "2001-02 RUN " + MONTHLY);
            assertThat(plan.steps()).containsExactly("gold.airport_daily_delays", "gate.gold.airport_daily_delays", "gold.route_daily",
                    "gold.airport_monthly_delays");
            assertThat(plan.outside()).containsExactly("reports.delay_digest@2001-01-31");

            BackfillReport report = backfill.run(spec, plan, new Backfill.Options(2, 64, "test"), Backfill.Progress.NONE);
            assertThat(report.status().name()).as("%s", report.outcomes()).isEqualTo("COMPLETED");
            assertThat(report.outcomes()).extracting(o -> o.partition() + " " + o.status() + " " + o.summary().steps().size())
                    .containsExactly("2001-01 COMPLETED 1", "2001-01-31 COMPLETED 3", "2001-02 COMPLETED 1", "2001-02-01 COMPLETED 3");

            // exactly those: Silver of the changed days and everything of the other days is as it was
            assertThat(published(dsl, "silver.flights", "2001-01-31")).isEqualTo(1);
            assertThat(published(dsl, "gold.airport_daily_delays", "2001-01-31")).isEqualTo(2);
            assertThat(published(dsl, "gold.route_daily", "2001-02-01")).isEqualTo(2);
            assertThat(published(dsl, "gold.airport_daily_delays", "2001-01-30")).isEqualTo(1);
            assertThat(published(dsl, "gold.airport_daily_delays", "2001-02-02")).isEqualTo(1);
            assertThat(published(dsl, "gold.airport_monthly_delays", "2001-01")).isEqualTo(3);
            assertThat(published(dsl, "gold.airport_monthly_delays", "2001-02")).isEqualTo(3);
            assertThat(monthlyFlights(dsl, "2001-01")).isEqualTo(dailyFlights(dsl, "2001-01-30", "2001-01-31"));
            assertThat(monthlyFlights(dsl, "2001-02")).isEqualTo(dailyFlights(dsl, "2001-02-01", "2001-02-02"));
            assertThat(dsl.resultQuery("SELECT partition_key || ' ' || MAX(attempt) FROM sluice.run GROUP BY partition_key ORDER BY 1")
                    .fetch(0, String.class)).containsExactly("2001-01 0", "2001-01-30 0", "2001-01-31 1", "2001-02 0", "2001-02-01 1",
                            "2001-02-02 0");
            // the dependency order: both days ended before either month started
            assertThat(dsl.resultQuery("SELECT MAX(ended_at) FROM sluice.run WHERE attempt = 1").fetchOne(0, java.time.OffsetDateTime.class))
                    .isBefore(dsl.resultQuery("SELECT MIN(started_at) FROM sluice.run WHERE CHAR_LENGTH(partition_key) = 7")
                            .fetchOne(0, java.time.OffsetDateTime.class));
            // the backfill is one run; the four partition runs are its children
            assertThat(dsl.resultQuery("SELECT DISTINCT partition_key FROM sluice.lineage_event WHERE job = 'flights' AND parent_run_id = ?"
                    + " ORDER BY 1", report.lineageRun().toString()).fetch(0, String.class))
                    .containsExactly("2001-01", "2001-01-31", "2001-02", "2001-02-01");

            // a changed snapshot: every partition built from it, all the way down
            BackfillPlan airports = backfill.planChanged(spec, DatasetRef.parse("silver.airports"), LocalDate.parse("2001-01-29"),
                    LocalDate.parse("2001-02-02"));
            List<String> fromSilver = List.of("silver.flights", "gold.airport_daily_delays", "gold.route_daily");
            assertThat(airports.partitions()).extracting(p -> p.partition() + " " + p.action() + " " + p.tables()).containsExactly(
                    "2001-01-29 SKIP " + fromSilver, "2001-01-30 RERUN " + fromSilver, "2001-01-31 RERUN " + fromSilver,
                    "2001-02-01 RERUN " + fromSilver, "2001-02-02 RERUN " + fromSilver, "2001-01 RERUN " + MONTHLY,
                    "2001-02 RERUN " + MONTHLY);
        }
    }

    private static long monthlyFlights(DSLContext dsl, String month) {
        return dsl.resultQuery("SELECT SUM(flights) FROM gold.airport_monthly_delays WHERE flight_month = ?", month).fetchOne(0, Long.class);
    }

    private static long dailyFlights(DSLContext dsl, String first, String last) {
        return dsl.resultQuery("SELECT SUM(flights) FROM gold.airport_daily_delays WHERE _partition BETWEEN ? AND ?", first, last)
                .fetchOne(0, Long.class);
    }

    private static int published(DSLContext dsl, String dataset, String partition) {
        return dsl.resultQuery("SELECT version FROM sluice.published_partition WHERE dataset = ? AND partition_key = ?", dataset, partition)
                .fetchOne(0, Integer.class);
    }

    private static final String FOREIGN = """
            {"eventType": "COMPLETE", "eventTime": "2026-11-30T08:00:00Z",
             "run": {"runId": "01934a57-0000-7000-8000-000000000001", "facets": {"sluice_run": {"partition": "2001-01-31"}}},
             "job": {"namespace": "reports", "name": "digest"},
             "inputs": [{"namespace": "warehouse", "name": "gold.airport_daily_delays"}],
             "outputs": [{"namespace": "reports", "name": "reports.delay_digest"}],
             "producer": "https://example.org/reports", "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json"}
            """;
}
