package dev.sluice.batch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.batch.job.RunSummary;
import dev.sluice.batch.reconcile.Reconciliation;
import dev.sluice.batch.testkit.DuckDbReference;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.Partition;
import dev.sluice.quality.CheckResult;
import dev.sluice.quality.CheckStatus;
import dev.sluice.warehouse.Warehouse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;

/**
 * The reconciliation step of a batch load whose hot path never ran, as the quickstart meets it: the
 * check is NO_DATA (nothing to compare), never a difference, and the warehouse's trace file holds no
 * exception of a live table that does not exist. Once the hot path has stored a position, a day it
 * delivered no event of is NO_DATA too, and a day with live windows is compared key by key.
 */
class ReconciliationIT {

    private static final Partition DAY = Partition.parseDaily("2001-07-01");

    @Test
    void aDayWithoutLiveEventsIsNoDataAndNoLiveTableIsProbed() throws Exception {
        String url = TestHome.freshH2Url();
        PipelineSpec spec = TestHome.flightsSpec(url, "sa", "");
        Path trace = Path.of(url.substring("jdbc:h2:file:".length()).split(";", 2)[0] + ".trace.db");
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            DSLContext dsl = w.dsl();
            RunSummary run = new PipelineRunner(w, TestHome.withSampleData()).run(spec, DAY, RunOptions.plain());
            assertThat(run.status().name()).as("%s", run.failure()).isEqualTo("COMPLETED");
            assertThat(run.warnings()).noneSatisfy(wn -> assertThat(wn).contains("reconcile"));
            // the 6 flights of the day leave from 3 airports (DuckDB on the original file agrees)
            assertThat(DuckDbReference.airportDailyDelays(TestHome.originalFlights(), TestHome.originalAirports(), DAY.date())).hasSize(3);
            var recorded = dsl.resultQuery("SELECT status, metric, element_count, unexpected_count, message FROM sluice.quality_results"
                    + " WHERE check_id = 'reconcile_airport_daily_delays' AND partition_key = '2001-07-01'").fetch();
            assertThat(recorded).singleElement().satisfies(q -> {
                assertThat(q.get(0)).isEqualTo("NO_DATA");
                assertThat(q.get(1)).isNull();
                assertThat(q.get(2, Long.class)).isZero();
                assertThat(q.get(3, Long.class)).isZero();
                assertThat(q.get(4)).isEqualTo("gold.airport_delays_live vs gold.airport_daily_delays partition 2001-07-01: no live window"
                        + " in the partition, nothing to compare (the hot path, consumer group sluice-flights, has stored no position yet:"
                        + " was it running?); batch 6 flights over 3 key(s)");
            });
            assertThat(Files.exists(trace) ? Files.readString(trace) : "").as("H2's trace file").doesNotContain("not found");

            // the hot path has run (a stored position, its tables) but delivered no event of the day
            dsl.execute("CREATE TABLE gold.airport_delays_live (origin VARCHAR(3) NOT NULL, window_start TIMESTAMP NOT NULL,"
                    + " flights BIGINT, avg_delay_min DOUBLE PRECISION)");
            dsl.execute("CREATE TABLE bronze.flight_events (date TIMESTAMP, _late BOOLEAN)");
            dsl.execute("INSERT INTO sluice.hot_offset (group_id, topic, kafka_partition, next_offset, updated_at)"
                    + " VALUES ('sluice-flights', 'flights.events', 0, 100, CURRENT_TIMESTAMP)");
            CheckResult quiet = Reconciliation.run(dsl, spec, DAY).checks().get(0);
            assertThat(quiet.status()).isEqualTo(CheckStatus.NO_DATA);
            assertThat(List.of(quiet.held(), quiet.stops())).containsExactly(false, false);
            assertThat(quiet.message()).isEqualTo("gold.airport_delays_live vs gold.airport_daily_delays partition 2001-07-01: no live window"
                    + " in the partition, nothing to compare (the hot path delivered no event of it); batch 6 flights over 3 key(s)");

            // one live window of one airport: every other airport of the day is a difference
            var first = dsl.resultQuery("SELECT origin, flights, avg_delay_min FROM gold.airport_daily_delays"
                    + " WHERE flight_date = DATE '2001-07-01' ORDER BY origin").fetch().get(0);
            String origin = first.get(0, String.class);
            long flights = first.get(1, Long.class);
            double avg = first.get(2, Double.class);
            dsl.execute("INSERT INTO gold.airport_delays_live VALUES (?, TIMESTAMP '2001-07-01 00:00:00', ?, ?)", origin, flights, avg);
            CheckResult compared = Reconciliation.run(dsl, spec, DAY).checks().get(0);
            assertThat(compared.status()).isEqualTo(CheckStatus.WARNED);
            assertThat(compared.metric()).isEqualTo(2.0);
            assertThat(compared.elementCount()).isEqualTo(3);
            assertThat(compared.message()).startsWith("gold.airport_delays_live vs gold.airport_daily_delays partition 2001-07-01: 2 of 3"
                    + " key(s) differ; live " + flights + " flights over 1 key(s), batch 6 over 3");
        }
    }
}
