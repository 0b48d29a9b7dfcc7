package dev.sluice.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.batch.job.RunSummary;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.warehouse.Warehouse;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.BadInputException;
import dev.sluice.core.Partition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input, row by row: every row read reaches Bronze; a row whose values break the contract is
 * quarantined at Silver with rule {@code contract_violation} and a reason naming column, value and
 * line, and rows read = Bronze rows = Silver rows + duplicates collapsed + rows quarantined.
 */
class BadInputIT {

    @TempDir
    Path home;

    private static final Partition DAY = Partition.daily(LocalDate.parse("2001-07-01"));

    private PipelineSpec pipeline(String format) throws Exception {
        Path specFile = TestHome.writePipeline(home, "visits", """
                contract: visits
                version: 1
                columns:
                  - {name: id, type: long, nullable: false}
                  - {name: visit_day, type: date, nullable: false}
                  - {name: note, type: string, nullable: true}
                """, """
                pipeline: visits
                warehouse: {url: "${SLUICE_WAREHOUSE_URL}", user: sa, password: ""}
                sources:
                  - {name: visits, format: %s, path: "${SLUICE_HOME}/landing/visits/dt={partition}", contract: contracts/visits.v1.yaml}
                layers:
                  bronze: [{table: bronze.visits_raw, source: visits}]
                  silver:
                    - table: silver.visits
                      input: bronze.visits_raw
                      key: [id]
                      columns: {id: long, visit_day: date, note: string, dup_count: long}
                      sql: SELECT id, visit_day, note, COUNT(*) AS dup_count FROM {input} v GROUP BY id, visit_day, note
                  gold:
                    - table: gold.visit_days
                      input: silver.visits
                      key: [visit_day]
                      columns: {visit_day: date, visits: long}
                      sql: SELECT visit_day, COUNT(*) AS visits FROM {input} s GROUP BY visit_day
                """.formatted(format));
        return TestHome.load(home, specFile);
    }

    private Path land(String name, byte[] content) throws Exception {
        Path dir = Files.createDirectories(home.resolve("landing/visits/dt=2001-07-01"));
        return Files.write(dir.resolve(name), content);
    }

    private static List<String> quarantine(DSLContext dsl) {
        return dsl.resultQuery("SELECT source_pos || ' ' || rule_id || ' ' || reason FROM sluice.quarantine ORDER BY source_pos")
                .fetch(0, String.class);
    }

    private static void assertIdentity(RunSummary s, long read) {
        assertThat(s.status()).isEqualTo("COMPLETED");
        assertThat(s.rowsRead()).isEqualTo(read);
        assertThat(s.bronzeRows()).isEqualTo(read);
        assertThat(s.silverRows() + s.duplicatesCollapsed() + s.quarantined()).isEqualTo(read);
    }

    @Test
    void datesALenientParserWouldFixAreQuarantinedWithColumnAndValue() throws Exception {
        PipelineSpec spec = pipeline("csv");
        land("v.csv", """
                id,visit_day,note
                1,2001-02-29,leap day in a common year
                2,2001-13-01,month 13
                3,2020011,seven digits
                4,2001-03-01,good
                """.getBytes());
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            RunSummary s = new PipelineRunner(w, home).run(spec, DAY, RunOptions.plain());
            assertIdentity(s, 4);
            assertThat(s.silverRows()).isEqualTo(1);
            assertThat(s.quarantined()).isEqualTo(3);
            assertThat(quarantine(w.dsl())).containsExactly(
                    "0 contract_violation the row breaks its contract: [{\"column\":\"visit_day\",\"reason\":\"'2001-02-29' is not a date (line 2)\",\"value\":\"2001-02-29\"}]",
                    "1 contract_violation the row breaks its contract: [{\"column\":\"visit_day\",\"reason\":\"'2001-13-01' is not a date (line 3)\",\"value\":\"2001-13-01\"}]",
                    "2 contract_violation the row breaks its contract: [{\"column\":\"visit_day\",\"reason\":\"'2020011' is not a date (line 4)\",\"value\":\"2020011\"}]");
            assertThat(w.dsl().resultQuery("SELECT _parse_errors FROM bronze.visits_raw WHERE id = 1").fetchOne(0, String.class))
                    .as("Bronze keeps the raw value").contains("2001-02-29");
        }
    }

    @Test
    void anEmptyStringIsNullWhereAllowedElseQuarantined() throws Exception {
        PipelineSpec spec = pipeline("csv");
        land("v.csv", "id,visit_day,note\n1,2001-07-01,\n,2001-07-01,no id\n3,,no day\n".getBytes());
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            RunSummary s = new PipelineRunner(w, home).run(spec, DAY, RunOptions.plain());
            assertIdentity(s, 3);
            assertThat(s.silverRows()).isEqualTo(1);
            assertThat(w.dsl().resultQuery("SELECT note FROM silver.visits WHERE id = 1").fetchOne(0)).isNull();
            assertThat(quarantine(w.dsl())).hasSize(2).allSatisfy(q -> assertThat(q).contains("empty value in a required column"));
            assertThat(quarantine(w.dsl()).get(0)).contains("\"column\":\"id\"");
            assertThat(quarantine(w.dsl()).get(1)).contains("\"column\":\"visit_day\"");
        }
    }

    @Test
    void aLineLongerThanOneMegabyteIsQuarantinedWithItsPositionAndTheRestLoads() throws Exception {
        PipelineSpec spec = pipeline("csv");
        assertThat(spec.maxLineBytes()).isEqualTo(1 << 20);
        String longNote = "x".repeat((1 << 20) + 10);
        land("v.csv", ("id,visit_day,note\n1,2001-07-01,a\n2,2001-07-01," + longNote + "\n3,2001-07-01,c\n").getBytes());
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            RunSummary s = new PipelineRunner(w, home).run(spec, DAY, RunOptions.plain());
            assertIdentity(s, 3);
            assertThat(s.silverRows()).isEqualTo(2);
            assertThat(w.dsl().resultQuery("SELECT source_pos, rule_id FROM sluice.quarantine").fetchOne().intoList())
                    .containsExactly(1L, "contract_violation");
            assertThat(quarantine(w.dsl()).get(0)).contains("line 3 holds 1048599 characters of values, more than the 1048576 allowed");
            String raw = w.dsl().resultQuery("SELECT record_json FROM sluice.quarantine").fetchOne(0, String.class);
            assertThat(raw).as("the raw line is kept, cut to 64 KiB").contains("x".repeat(65_000))
                    .contains("raw value cut to 65536 of 1048599 characters");
        }
    }

    @Test
    void anEmptyFileLoadsZeroRowsWithAWarningNamingIt() throws Exception {
        PipelineSpec spec = pipeline("csv");
        land("a-empty.csv", new byte[0]);
        land("b-header-only.csv", "id,visit_day,note\n".getBytes());
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            RunSummary s = new PipelineRunner(w, home).run(spec, DAY, RunOptions.plain());
            assertIdentity(s, 0);
            assertThat(s.warnings()).containsExactly(
                    "landing/visits/dt=2001-07-01/a-empty.csv is empty (0 bytes): 0 rows loaded",
                    "landing/visits/dt=2001-07-01/b-header-only.csv has no rows: 0 rows loaded");
        }
    }

    @Test
    void aCorruptParquetOrAFileNotInItsFormatFailsBeforeAnyWrite() throws Exception {
        PipelineSpec spec = pipeline("parquet");
        byte[] real = Files.readAllBytes(TestHome.withSampleData().resolve("landing/flights/dt=2001-07-01/flights.parquet"));
        land("a.parquet", java.util.Arrays.copyOf(real, real.length / 2));
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            assertThatThrownBy(() -> new PipelineRunner(w, home).run(spec, DAY, RunOptions.plain()))
                    .isInstanceOf(BadInputException.class)
                    .hasMessageStartingWith("landing/visits/dt=2001-07-01/a.parquet: cannot read the parquet schema:");
            assertThat(w.dsl().fetchCount(w.dsl().selectFrom("bronze.visits_raw"))).isZero();
        }
        Files.delete(home.resolve("landing/visits/dt=2001-07-01/a.parquet"));
        land("b.parquet", "id,visit_day,note\n1,2001-07-01,a\n".getBytes());
        PipelineSpec again = pipeline("parquet");
        try (Warehouse w = Warehouse.open(again.warehouse())) {
            assertThatThrownBy(() -> new PipelineRunner(w, home).run(again, DAY, RunOptions.plain()))
                    .isInstanceOf(BadInputException.class)
                    .hasMessageStartingWith("landing/visits/dt=2001-07-01/b.parquet: cannot read the parquet schema:");
            assertThat(w.dsl().fetchCount(w.dsl().selectFrom("bronze.visits_raw"))).isZero();
        }
    }
}
