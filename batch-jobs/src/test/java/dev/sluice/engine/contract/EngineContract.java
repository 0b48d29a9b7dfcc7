package dev.sluice.engine.contract;

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
import dev.sluice.config.ColumnType;
import dev.sluice.config.EngineKind;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.Partition;
import dev.sluice.core.SluiceException;
import dev.sluice.control.version.PartitionVersions;
import dev.sluice.core.RunId;
import dev.sluice.engine.BronzeRedaction;
import dev.sluice.engine.LayerEngine;
import dev.sluice.engine.LayerEngines;
import dev.sluice.engine.TransformResult;
import dev.sluice.warehouse.Warehouse;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import org.jooq.Record;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The engine contract test kit: the cases every layer engine must pass, on the flights load and
 * real data, as Iceberg's {@code CatalogTests} is run by every catalog. A subclass names the
 * engine (its flights spec, the dates it loads, how its tables are named and read) and the
 * warehouse database (H2 or PostgreSQL); {@link WarehouseEngineContract} and
 * {@link LakehouseEngineContract} do the first for the two engines, and the four ITs of this
 * package ({@code FlightsLoadH2IT}, {@code FlightsLoadPostgresIT}, {@code FlightsLoadLakehouseIT},
 * {@code FlightsLoadLakehousePostgresIT}) the second. Cases only one engine has stay in its
 * subclass.
 *
 * <p>Before the cases run, {@link #dates()} are loaded one by one ({@link RunOptions#plain()}),
 * each run COMPLETED. The cases: Gold equals DuckDB computing the same rules from the original
 * file (every airport, every value, the average to a relative 1e-9); the run summary accounts for
 * every row (Bronze rows equal the file's, Silver + duplicates + quarantined = Bronze, the
 * quarantine table's rows and the one quarantined record's fields); a completed partition is
 * refused, and its rerun reads no new Bronze rows and leaves every Silver/Gold partition's
 * checksum as it was (the restart position comes from the data); a dataset belongs to one
 * pipeline (a renamed copy is refused before it writes anything); the monthly rollup names its
 * months and sums the published days; a version written stays unseen until published, a rollback
 * publishes a kept one again, a purge removes a superseded one, the published rows unchanged; an
 * erasure redacts a value in exactly the Bronze rows holding it (a departure time of the last date:
 * no other case reruns that date). Waves and the refusal of reserved names are not here yet:
 * {@code BackfillIT}, {@code BackfillLakehouseIT}, {@code WaveWritesLakehouseIT} and
 * {@code PipelineSpecLoaderTest} hold them; the erasure log and quarantine side of an erasure,
 * {@code ErasureIT}/{@code LakehouseErasureIT} (operations). Cases run in one instance, in any order
 * (a subclass's too), and leave the loaded layers as they found them, except the erasure, which runs
 * last ({@link Order}).
 *
 * <p>Why it lives here: the cases run pipelines through the job engine ({@link PipelineRunner} in
 * {@code batch-jobs}), which depends on {@code engine-api}; in {@code engine-api}'s test jar the kit
 * would make {@code engine-api} depend on {@code batch-jobs}, a Maven cycle. So it is in
 * {@code batch-jobs}' test jar (package {@code dev.sluice.engine.contract}), which {@code app},
 * {@code operations} and {@code bench} already use. A new engine or compute (e.g. DuckDB) runs it
 * from a test of a module that has {@code batch-jobs}' test jar and the engine's module on its test
 * classpath: a subclass implementing the hooks below (its own flights spec in {@code pipelines/},
 * its table names, a read of its tables in the shared SQL subset of docs/engines.md, its partition
 * checksum), and one {@code *IT} per warehouse database passing {@link KitDatabase#h2()} or
 * {@link KitDatabase#postgres()} to its constructor; Failsafe runs them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
public abstract class EngineContract {

    /**
     * Dates with the real file's quirks: 2001-02-09 holds 5 exact duplicate pairs (the most of any
     * date), 2001-02-22 one row with delay −953 min (quarantined), 2001-07-01 only 6 rows. Every
     * engine loads them (and may load more: {@link #dates()}).
     */
    protected static final LocalDate DUPLICATES = LocalDate.parse("2001-02-09");
    protected static final LocalDate QUARANTINE = LocalDate.parse("2001-02-22");
    protected static final LocalDate LAST = LocalDate.parse("2001-07-01");

    protected PipelineSpec spec;
    protected Warehouse warehouse;
    protected PipelineRunner runner;
    /** The first run of each of {@link #dates()}, in load order. */
    protected final Map<LocalDate, RunSummary> first = new LinkedHashMap<>();

    private final KitDatabase database;

    /** @param database the warehouse database the cases run on, closed after them */
    protected EngineContract(KitDatabase database) {
        this.database = database;
    }

    /** The warehouse database's JDBC URL (H2 or PostgreSQL): the control plane's, and the engine's catalog. */
    protected final String url() {
        return database.url();
    }

    protected final String user() {
        return database.user();
    }

    protected final String password() {
        return database.password();
    }

    /** The engine's flights spec on the sample data and the given warehouse database. */
    protected abstract PipelineSpec engineSpec(String url, String user, String password);

    /** The engine the spec names. */
    protected abstract EngineKind engineKind();

    /** The dates loaded before the cases, in order: {@link #DUPLICATES}, {@link #QUARANTINE} and {@link #LAST} among them. */
    protected abstract List<LocalDate> dates();

    /** The engine spec's name of a table of {@code pipelines/flights.yaml} (e.g. {@code gold.airport_daily_delays}). */
    protected abstract String table(String flightsTable);

    /**
     * The rows of a read-only query in the shared SQL subset (docs/engines.md) on the engine's
     * tables, each row its column values as the engine returns them (a number as any
     * {@link Number}).
     */
    protected abstract List<List<Object>> rows(String sql);

    /** The checksum of one partition of a Silver/Gold table: equal exactly when the partition holds the same rows. */
    protected abstract String checksum(TableSpec table, Partition p);

    @BeforeAll
    protected void loadDates() {
        spec = engineSpec(url(), user(), password());
        assertThat(spec.engine().kind()).isEqualTo(engineKind());
        assertThat(dates()).contains(DUPLICATES, QUARANTINE, LAST);
        warehouse = Warehouse.open(spec.warehouse());
        runner = new PipelineRunner(warehouse, TestHome.withSampleData());
        for (LocalDate d : dates()) {
            RunSummary s = runner.run(spec, Partition.daily(d), RunOptions.plain());
            assertThat(s.failure()).as("run of %s", d).isNull();
            first.put(d, s);
        }
    }

    @AfterAll
    protected void close() {
        if (warehouse != null) {
            warehouse.close();
        }
        database.close();
    }

    @Test
    public void goldMatchesDuckDbOnTheOriginalFile() throws Exception {
        for (LocalDate d : dates()) {
            List<AirportDay> expected = DuckDbReference.airportDailyDelays(TestHome.originalFlights(),
                    TestHome.originalAirports(), d);
            List<List<Object>> actual = rows("SELECT origin, flights, delayed_15, avg_delay_min, max_delay_min, total_distance_mi"
                    + " FROM " + table("gold.airport_daily_delays") + " WHERE flight_date = DATE '" + d + "' ORDER BY origin");
            assertThat(expected).as("reference rows on %s", d).isNotEmpty();
            assertThat(actual).as("airports on %s", d).hasSize(expected.size());
            for (int i = 0; i < expected.size(); i++) {
                AirportDay e = expected.get(i);
                List<Object> a = actual.get(i);
                assertThat(a.get(0)).isEqualTo(e.origin());
                assertThat(number(a.get(1))).as("flights %s %s", d, e.origin()).isEqualTo(e.flights());
                assertThat(number(a.get(2))).as("delayed_15 %s %s", d, e.origin()).isEqualTo(e.delayed15());
                assertThat(((Number) a.get(3)).doubleValue()).as("avg_delay_min %s %s", d, e.origin())
                        .isCloseTo(e.avgDelayMin(), within(Math.abs(e.avgDelayMin()) * 1e-9 + 1e-12));
                assertThat(number(a.get(4))).as("max_delay_min %s %s", d, e.origin()).isEqualTo(e.maxDelayMin());
                assertThat(number(a.get(5))).as("total_distance_mi %s %s", d, e.origin()).isEqualTo(e.totalDistanceMi());
            }
        }
    }

    @Test
    public void summaryAccountsForEveryRow() throws Exception {
        for (LocalDate d : dates()) {
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
    public void completedPartitionIsRefusedAndRerunLeavesIdenticalLayers() {
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
     * publish and prune the first one's versions): by the engine as it creates tables, and by a
     * run, which leaves every layer as it was.
     */
    @Test
    public void aDatasetBelongsToOnePipeline() {
        PipelineSpec copy = TestHome.renamed(spec, spec.name() + "_copy");
        String refusal = copy.name() + ": " + table("gold.airport_daily_delays") + " is already built by pipeline " + spec.name()
                + " in this warehouse";
        assertThatThrownBy(() -> LayerEngines.on(warehouse).forPipeline(copy).createTables())
                .isInstanceOf(SluiceException.class)
                .hasMessageStartingWith(refusal);
        Partition p = Partition.daily(LAST);
        Map<String, String> before = checksums(p);
        long bronzeBefore = bronzeRows();
        assertThatThrownBy(() -> runner.run(copy, p, RunOptions.plain().withRerun(true)))
                .isInstanceOf(SluiceException.class)
                .hasMessageStartingWith(refusal);
        assertThat(checksums(p)).isEqualTo(before);
        assertThat(bronzeRows()).isEqualTo(bronzeBefore);
    }

    /**
     * The monthly rollup holds a row per month loaded, and its flights are the published days':
     * over every month, and for February (two loaded days) also its rows (one per airport of its
     * days) and the Silver rows of both runs.
     */
    @Test
    public void theMonthlyRollupNamesItsMonthsAndSumsThePublishedDays() {
        String monthly = table("gold.airport_monthly_delays");
        String daily = table("gold.airport_daily_delays");
        assertThat(rows("SELECT DISTINCT flight_month FROM " + monthly + " ORDER BY flight_month")).map(r -> r.get(0))
                .containsExactlyElementsOf(new TreeSet<>(dates().stream().map(d -> d.toString().substring(0, 7)).toList()));
        assertThat(number(rows("SELECT SUM(flights) FROM " + monthly).get(0).get(0)))
                .isEqualTo(number(rows("SELECT SUM(flights) FROM " + daily).get(0).get(0)))
                .isPositive();
        List<Object> feb = rows("SELECT SUM(flights), COUNT(*) FROM " + monthly + " WHERE flight_month = '2001-02'").get(0);
        List<Object> days = rows("SELECT SUM(flights), COUNT(DISTINCT origin) FROM " + daily
                + " WHERE flight_date BETWEEN DATE '2001-02-01' AND DATE '2001-02-28'").get(0);
        assertThat(number(feb.get(0))).isEqualTo(number(days.get(0)))
                .isEqualTo(first.get(DUPLICATES).silverRows() + first.get(QUARANTINE).silverRows());
        assertThat(number(feb.get(1))).isEqualTo(number(days.get(1)));
    }

    /**
     * Write-audit-publish, rollback and purge through the seam itself, on one Gold partition
     * ({@link #LAST}): a version written is kept but unseen (as one whose gate refused it, or has not
     * judged it yet, is: readers keep the published rows); publishing it swaps the partition whole
     * (the same input gives the same rows); a rollback publishes the kept earlier version again and
     * the control plane records it; a purge dry run counts the superseded version's data and the
     * purge removes it from the kept versions. The published rows stay the same throughout.
     */
    @Test
    public void aWrittenVersionStaysUnseenUntilPublishedAndRollbackAndPurgeKeepThePublishedRows() {
        LayerEngine engine = LayerEngines.on(warehouse).forPipeline(spec);
        PartitionVersions versions = new PartitionVersions(warehouse.dsl());
        TableSpec gold = spec.table(DatasetRef.parse(table("gold.airport_daily_delays"))).orElseThrow();
        assertThat(gold.checks()).as("a table published by its gate").isNotEmpty();
        Partition p = Partition.daily(LAST);
        TransactionTemplate tx = new TransactionTemplate(warehouse.transactionManager());
        String rows = checksum(gold, p);
        int published = versions.published(gold.table(), p).orElseThrow();
        RunId run = RunId.newId();

        TransformResult written = tx.execute(status -> engine.write(gold, p, run));
        int next = written.version();
        assertThat(written.unchanged()).isFalse();
        assertThat(next).isGreaterThan(published);
        assertThat(versions.writtenBy(gold.table(), p, run)).isEqualTo(next);
        assertThat(versions.published(gold.table(), p)).as("written, not published").contains(published);
        assertThat(checksum(gold, p)).as("readers see the published rows").isEqualTo(rows);
        assertThat(engine.keptVersions(gold, p)).contains(published, next);
        assertThat(engine.pruned(gold, p, next)).isFalse();

        tx.executeWithoutResult(status -> engine.publish(gold, p, next, run));
        assertThat(versions.published(gold.table(), p)).contains(next);
        assertThat(checksum(gold, p)).as("the same input publishes the same rows").isEqualTo(rows);

        Integer restored = tx.execute(status -> engine.rollback(gold, p, published, "engine-contract", "kit"));
        assertThat(restored).isEqualTo(published);
        assertThat(versions.published(gold.table(), p)).contains(published);
        assertThat(versions.lastRollback(gold.table(), p).orElseThrow())
                .extracting(r -> r.fromVersion(), r -> r.toVersion(), r -> r.requestedBy())
                .containsExactly(next, published, "engine-contract");
        assertThat(checksum(gold, p)).isEqualTo(rows);

        long counted = warehouse.dsl().transactionResult(c -> Long.valueOf(engine.purgeVersion(c.dsl(), gold, p.key(), next, true)));
        assertThat(counted).as("a dry run counts the superseded version's data").isPositive();
        assertThat(engine.keptVersions(gold, p)).as("a dry run removes nothing").contains(next);
        long purged = warehouse.dsl().transactionResult(c -> Long.valueOf(engine.purgeVersion(c.dsl(), gold, p.key(), next, false)));
        assertThat(purged).isEqualTo(counted);
        assertThat(engine.keptVersions(gold, p)).contains(published).doesNotContain(next);
        assertThat(checksum(gold, p)).isEqualTo(rows);
    }

    /**
     * An erasure through the seam ({@code Housekeeping#redactBronze}): the first departure time of
     * {@link #LAST} (a value no other date's rows hold) becomes NULL in exactly the Bronze rows
     * holding it, the partition that held it is told, and nothing else changes (Bronze's row count,
     * Silver's rows). Dates are compared by range, not {@code _partition}: Spark resolves that name
     * to Iceberg's partition metadata column.
     */
    @Test
    @Order(Integer.MAX_VALUE) // last: it rewrites Bronze (the lakehouse engine its files, expiring their snapshots)
    public void anErasureRedactsTheValueInTheBronzeRowsHoldingIt() {
        LayerEngine engine = LayerEngines.on(warehouse).forPipeline(spec);
        String bronzeName = table("bronze.flights_raw");
        TableSpec bronze = spec.table(DatasetRef.parse(bronzeName)).orElseThrow();
        TableSpec silver = spec.table(DatasetRef.parse(table("silver.flights"))).orElseThrow();
        Object first = rows("SELECT MIN(date) FROM " + bronzeName + " WHERE date >= TIMESTAMP '" + LAST + " 00:00:00'").get(0).get(0);
        LocalDateTime at = first instanceof java.sql.Timestamp t ? t.toLocalDateTime() : (LocalDateTime) first;
        String literal = "TIMESTAMP '" + at.format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")) + "'";
        long holding = number(rows("SELECT COUNT(*) FROM " + bronzeName + " WHERE date = " + literal).get(0).get(0));
        long nullsBefore = number(rows("SELECT COUNT(*) FROM " + bronzeName + " WHERE date IS NULL").get(0).get(0));
        long bronzeBefore = bronzeRows();
        String silverRows = checksum(silver, Partition.daily(LAST));
        Set<String> partitions = new TreeSet<>();
        String raw = at.toString();

        long redacted = engine.redactBronze(bronze, new BronzeRedaction("date", ColumnType.TIMESTAMP,
                ColumnType.TIMESTAMP.parseLiteral(raw).orElseThrow(), raw, "[erased #engine-contract]", UnaryOperator.identity()), partitions);

        assertThat(redacted).isEqualTo(holding).isPositive();
        assertThat(partitions).containsExactly(LAST.toString());
        assertThat(number(rows("SELECT COUNT(*) FROM " + bronzeName + " WHERE date = " + literal).get(0).get(0))).isZero();
        assertThat(number(rows("SELECT COUNT(*) FROM " + bronzeName + " WHERE date IS NULL").get(0).get(0))).isEqualTo(nullsBefore + holding);
        assertThat(bronzeRows()).isEqualTo(bronzeBefore);
        assertThat(checksum(silver, Partition.daily(LAST))).as("Silver is not rewritten by an erasure of Bronze").isEqualTo(silverRows);
    }

    /** All rows of the engine's Bronze table. */
    protected long bronzeRows() {
        return number(rows("SELECT COUNT(*) FROM " + table("bronze.flights_raw")).get(0).get(0));
    }

    /** Per Silver/Gold table of the day: the partition's checksum. */
    protected Map<String, String> checksums(Partition p) {
        Map<String, String> sums = new LinkedHashMap<>();
        for (String t : List.of("silver.flights", "gold.airport_daily_delays", "gold.route_daily")) {
            sums.put(table(t), checksum(spec.table(DatasetRef.parse(table(t))).orElseThrow(), p));
        }
        return sums;
    }

    /** A whole number as a long, whatever {@link Number} the engine returned it as. */
    protected static long number(Object value) {
        return ((Number) value).longValue();
    }
}
