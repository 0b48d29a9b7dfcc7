package dev.sluice.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.batch.job.RunRefusedException;
import dev.sluice.batch.job.RunSummary;
import dev.sluice.batch.testkit.DuckDbReference;
import dev.sluice.batch.testkit.DuckDbReference.AirportDay;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.engine.warehouse.TableChecksum;
import dev.sluice.warehouse.Warehouse;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.Partition;
import dev.sluice.core.SluiceException;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jooq.Record;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The flights load on real data, against one warehouse: loads three dates (2001-07-01 among them),
 * compares gold.airport_daily_delays with DuckDB computing the same rules from the original file,
 * and checks the run summary's row identity and the rerun rules. Subclasses name the warehouse.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class FlightsLoadContract {

    /**
     * Dates with the real file's quirks: 2001-02-09 holds 5 exact duplicate pairs (the most of any
     * date), 2001-02-22 one row with delay −953 min (quarantined), 2001-07-01 only 6 rows.
     */
    static final LocalDate DUPLICATES = LocalDate.parse("2001-02-09");
    static final LocalDate QUARANTINE = LocalDate.parse("2001-02-22");
    static final LocalDate LAST = LocalDate.parse("2001-07-01");
    static final List<LocalDate> DATES = List.of(DUPLICATES, QUARANTINE, LAST);

    PipelineSpec spec;
    Warehouse warehouse;
    PipelineRunner runner;
    final Map<LocalDate, RunSummary> first = new LinkedHashMap<>();

    abstract String url();

    abstract String user();

    abstract String password();

    @BeforeAll
    void loadDates() {
        spec = TestHome.flightsSpec(url(), user(), password());
        warehouse = Warehouse.open(spec.warehouse());
        runner = new PipelineRunner(warehouse, TestHome.withSampleData());
        for (LocalDate d : DATES) {
            RunSummary s = runner.run(spec, Partition.daily(d), RunOptions.plain());
            assertThat(s.failure()).isNull();
            first.put(d, s);
        }
    }

    @AfterAll
    void close() {
        if (warehouse != null) {
            warehouse.close();
        }
    }

    @Test
    void goldMatchesDuckDbOnTheOriginalFile() throws Exception {
        for (LocalDate d : DATES) {
            List<AirportDay> expected = DuckDbReference.airportDailyDelays(TestHome.originalFlights(),
                    TestHome.originalAirports(), d);
            List<Record> actual = warehouse.dsl().resultQuery(
                    "SELECT origin, flights, delayed_15, avg_delay_min, max_delay_min, total_distance_mi"
                            + " FROM gold.airport_daily_delays WHERE flight_date = ? ORDER BY origin", d).fetch();
            assertThat(actual).as("airports on %s", d).hasSize(expected.size());
            assertThat(expected).as("reference rows on %s", d).isNotEmpty();
            for (int i = 0; i < expected.size(); i++) {
                AirportDay e = expected.get(i);
                Record a = actual.get(i);
                assertThat(a.get(0, String.class)).isEqualTo(e.origin());
                assertThat(a.get(1, Long.class)).as("flights %s %s", d, e.origin()).isEqualTo(e.flights());
                assertThat(a.get(2, Long.class)).as("delayed_15 %s %s", d, e.origin()).isEqualTo(e.delayed15());
                assertThat(a.get(3, Double.class)).as("avg_delay_min %s %s", d, e.origin())
                        .isCloseTo(e.avgDelayMin(), within(Math.abs(e.avgDelayMin()) * 1e-9 + 1e-12));
                assertThat(a.get(4, Long.class)).isEqualTo(e.maxDelayMin());
                assertThat(a.get(5, Long.class)).isEqualTo(e.totalDistanceMi());
            }
        }
    }

    @Test
    void summaryAccountsForEveryRow() throws Exception {
        for (LocalDate d : DATES) {
            RunSummary s = first.get(d);
            long raw = DuckDbReference.rawRows(TestHome.originalFlights(), d);
            assertThat(s.status().name()).isEqualTo("COMPLETED");
            assertThat(s.bronzeRows()).as("Bronze rows on %s", d).isEqualTo(raw);
            assertThat(s.silverRows() + s.duplicatesCollapsed() + s.quarantined()).isEqualTo(s.bronzeRows());
            long quarantineRows = warehouse.dsl().fetchCount(warehouse.dsl().selectFrom("sluice.quarantine")
                    .where("partition_key = ?", d.toString()));
            assertThat(quarantineRows).isEqualTo(s.quarantined());
        }
        assertThat(first.get(LAST).bronzeRows()).isEqualTo(6);
        assertThat(first.get(DUPLICATES).duplicatesCollapsed()).isEqualTo(5);
        assertThat(first.get(DUPLICATES).quarantined()).isZero();
        assertThat(first.get(QUARANTINE).quarantined()).isEqualTo(1);
        Record q = warehouse.dsl().resultQuery("SELECT rule_id, source, source_pos, record_json, status"
                + " FROM sluice.quarantine WHERE partition_key = ?", QUARANTINE.toString()).fetchOne();
        assertThat(q.get(0, String.class)).isEqualTo("delay_out_of_range");
        assertThat(q.get(1, String.class)).isEqualTo("landing/flights/dt=2001-02-22/flights.parquet");
        var raw = new com.fasterxml.jackson.databind.ObjectMapper().readTree(q.get(3, String.class));
        assertThat(raw.get("delay").asLong()).isEqualTo(-953);
        assertThat(raw.get("origin").asText()).isEqualTo("EWR");
        assertThat(raw.get("destination").asText()).isEqualTo("MCO");
        assertThat(raw.get("date").asText()).startsWith("2001-02-22");
        assertThat(q.get(4, String.class)).isEqualTo("OPEN");
    }

    @Test
    void completedPartitionIsRefusedAndRerunLeavesIdenticalLayers() {
        Partition p = Partition.daily(DUPLICATES);
        assertThatThrownBy(() -> runner.run(spec, p, RunOptions.plain()))
                .isInstanceOf(RunRefusedException.class)
                .hasMessageContaining("already COMPLETED").hasMessageContaining("--rerun");
        Map<String, String> before = checksums(p);
        long bronzeBefore = bronzeRows();
        RunSummary rerun = runner.run(spec, p, RunOptions.plain().withRerun(true));
        assertThat(rerun.status().name()).isEqualTo("COMPLETED");
        assertThat(rerun.attempt()).isEqualTo(first.get(p.date()).attempt() + 1);
        assertThat(rerun.rowsRead()).as("an unchanged file adds no Bronze rows").isZero();
        assertThat(bronzeRows()).isEqualTo(bronzeBefore);
        assertThat(checksums(p)).isEqualTo(before);
        assertThat(rerun.silverRows()).isEqualTo(first.get(p.date()).silverRows());
    }

    /**
     * Versions and publications are recorded by dataset name, so a second pipeline declaring the
     * same Silver/Gold tables in this warehouse is refused before it writes anything (it would
     * publish and prune the first one's versions).
     */
    @Test
    void aDatasetBelongsToOnePipeline() {
        Partition p = Partition.daily(LAST);
        Map<String, String> before = checksums(p);
        long bronzeBefore = bronzeRows();
        assertThatThrownBy(() -> runner.run(TestHome.renamed(spec, "flights_copy"), p, RunOptions.plain().withRerun(true)))
                .isInstanceOf(SluiceException.class)
                .hasMessageStartingWith("flights_copy: gold.airport_daily_delays is already built by pipeline flights in this warehouse");
        assertThat(checksums(p)).isEqualTo(before);
        assertThat(bronzeRows()).isEqualTo(bronzeBefore);
    }

    @Test
    void theMonthlyRollupNamesItsMonthAndCountsEveryDailyFlight() {
        var dsl = warehouse.dsl();
        assertThat(dsl.resultQuery("SELECT DISTINCT flight_month FROM gold.airport_monthly_delays ORDER BY flight_month")
                .fetch(0, String.class)).containsExactly("2001-02", "2001-07");
        assertThat(dsl.resultQuery("SELECT SUM(flights) FROM gold.airport_monthly_delays").fetchOne(0, Long.class))
                .isEqualTo(dsl.resultQuery("SELECT SUM(flights) FROM gold.airport_daily_delays").fetchOne(0, Long.class))
                .isPositive();
    }

    private long bronzeRows() {
        return warehouse.dsl().fetchCount(warehouse.dsl().selectFrom("bronze.flights_raw"));
    }

    private Map<String, String> checksums(Partition p) {
        Map<String, String> sums = new LinkedHashMap<>();
        for (String t : List.of("silver.flights", "gold.airport_daily_delays", "gold.route_daily")) {
            sums.put(t, TableChecksum.of(warehouse.dsl(), spec.table(DatasetRef.parse(t)).orElseThrow(), p));
        }
        return sums;
    }
}
