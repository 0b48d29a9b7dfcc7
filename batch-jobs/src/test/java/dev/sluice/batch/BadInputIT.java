package dev.sluice.batch;

import java.nio.charset.StandardCharsets;
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
        assertThat(s.status().name()).isEqualTo("COMPLETED");
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
                """.getBytes(StandardCharsets.UTF_8));
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
        land("v.csv", "id,visit_day,note\n1,2001-07-01,\n,2001-07-01,no id\n3,,no day\n".getBytes(StandardCharsets.UTF_8));
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
        land("v.csv", ("id,visit_day,note\n1,2001-07-01,a\n2,2001-07-01," + longNote + "\n3,2001-07-01,c\n").getBytes(StandardCharsets.UTF_8));
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

    /**
     * A row with a long value (300,000 characters, under the line limit) and a bad date: its whole
     * record is kept in the quarantine (record_json was VARCHAR(100000), and the Silver step failed on
     * every restart with "Value too long").
     */
    @Test
    void aQuarantinedRowWithALongValueKeepsItsWholeRecord() throws Exception {
        PipelineSpec spec = pipeline("csv");
        String longNote = "n".repeat(300_000);
        land("v.csv", ("id,visit_day,note\n1,2001-07-01,a\n2,2001-07-32," + longNote + "\n").getBytes(StandardCharsets.UTF_8));
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            RunSummary s = new PipelineRunner(w, home).run(spec, DAY, RunOptions.plain());
            assertIdentity(s, 2);
            assertThat(s.quarantined()).isEqualTo(1);
            String raw = w.dsl().resultQuery("SELECT record_json FROM sluice.quarantine").fetchOne(0, String.class);
            assertThat(raw).contains(longNote).contains("2001-07-32");
        }
    }

    @Test
    void anEmptyFileLoadsZeroRowsWithAWarningNamingIt() throws Exception {
        PipelineSpec spec = pipeline("csv");
        land("a-empty.csv", new byte[0]);
        land("b-header-only.csv", "id,visit_day,note\n".getBytes(StandardCharsets.UTF_8));
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
        land("b.parquet", "id,visit_day,note\n1,2001-07-01,a\n".getBytes(StandardCharsets.UTF_8));
        PipelineSpec again = pipeline("parquet");
        try (Warehouse w = Warehouse.open(again.warehouse())) {
            assertThatThrownBy(() -> new PipelineRunner(w, home).run(again, DAY, RunOptions.plain()))
                    .isInstanceOf(BadInputException.class)
                    .hasMessageStartingWith("landing/visits/dt=2001-07-01/b.parquet: cannot read the parquet schema:");
            assertThat(w.dsl().fetchCount(w.dsl().selectFrom("bronze.visits_raw"))).isZero();
        }
    }

    private PipelineSpec amounts(String extraColumn) throws Exception {
        Path specFile = TestHome.writePipeline(home, "amounts", """
                contract: amounts
                version: 1
                columns:
                  - {name: id, type: long, nullable: false}
                  - {name: score, type: double}
                  - {name: rounded, type: double, lossy: true}
                  - {name: exact, type: 'decimal(20,2)'}
                %s
                """.formatted(extraColumn), """
                pipeline: amounts
                warehouse: {url: "${SLUICE_WAREHOUSE_URL}", user: sa, password: ""}
                sources:
                  - {name: amounts, format: csv, path: "${SLUICE_HOME}/landing/amounts/dt={partition}", contract: contracts/amounts.v1.yaml}
                layers:
                  bronze: [{table: bronze.amounts_raw, source: amounts}]
                  silver:
                    - table: silver.amounts
                      input: bronze.amounts_raw
                      key: [id]
                      columns: {id: long, score: double, exact: 'decimal(20,2)'}
                      sql: SELECT id, score, exact FROM {input} a
                  gold:
                    - table: gold.amount_total
                      input: silver.amounts
                      key: [n]
                      columns: {n: long, total: 'decimal(38,2)'}
                      sql: SELECT COUNT(*) AS n, SUM(exact) AS total FROM {input} s
                """);
        return TestHome.load(home, specFile);
    }

    @Test
    void aDoubleThatWouldBeRoundedIsQuarantinedNamingDecimalWhichKeepsEveryDigit() throws Exception {
        // before #21 both rows loaded silently as 1.2345678901234568E16 and 9.007199254740992E15
        PipelineSpec spec = amounts("");
        Path dir = Files.createDirectories(home.resolve("landing/amounts/dt=2001-07-01"));
        Files.writeString(dir.resolve("a.csv"), """
                id,score,rounded,exact
                1,12345678901234567.89,12345678901234567.89,12345678901234567.89
                2,9007199254740993,9007199254740993,9007199254740993
                3,0.1,0.1,0.10
                """);
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            RunSummary s = new PipelineRunner(w, home).run(spec, DAY, RunOptions.plain());
            assertIdentity(s, 3);
            assertThat(s.quarantined()).isEqualTo(2);
            assertThat(quarantine(w.dsl())).containsExactly(
                    "0 contract_violation the row breaks its contract: [{\"column\":\"score\",\"reason\":\"'12345678901234567.89'"
                            + " would be rounded to 1.2345678901234568E16 as a double (19 significant digits, more than the 17 a double"
                            + " keeps): declare the column decimal(p,s) to keep it exactly, or lossy: true to accept the rounding (line 2)\","
                            + "\"value\":\"12345678901234567.89\"}]",
                    "1 contract_violation the row breaks its contract: [{\"column\":\"score\",\"reason\":\"'9007199254740993'"
                            + " would be rounded to 9.007199254740992E15 as a double (beyond ±2^53 (9007199254740992), where a double does"
                            + " not hold every integer): declare the column decimal(p,s) to keep it exactly, or lossy: true to accept the"
                            + " rounding (line 3)\",\"value\":\"9007199254740993\"}]");
            // Bronze keeps the rows: the decimal exactly, the lossy double rounded as the contract allows
            assertThat(w.dsl().resultQuery("SELECT exact, rounded FROM bronze.amounts_raw ORDER BY id").fetch()
                    .map(r -> ((java.math.BigDecimal) r.get(0)).toPlainString() + " " + r.get(1)))
                    .containsExactly("12345678901234567.89 1.2345678901234568E16", "9007199254740993.00 9.007199254740992E15",
                            "0.10 0.1");
            assertThat(w.dsl().resultQuery("SELECT total FROM gold.amount_total").fetchOne(0)).isEqualTo(new java.math.BigDecimal("0.10"));
        }
    }

    @Test
    void aValueWithWhiteSpaceAroundItIsAFieldErrorUnlessTheColumnTrims() throws Exception {
        // before #21 every non-string value was stripped: ' 2021-09-16' loaded as 2021-09-16 with no error
        PipelineSpec spec = amounts("  - {name: seen, type: date}\n  - {name: paid, type: date, trim: true}");
        Path dir = Files.createDirectories(home.resolve("landing/amounts/dt=2001-07-01"));
        Files.writeString(dir.resolve("a.csv"), """
                id,score,rounded,exact,seen,paid
                1,1,1,1, 2021-09-16, 2021-09-16
                2,2,2,2,2021-09-17,2021-09-17\t
                """);
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            RunSummary s = new PipelineRunner(w, home).run(spec, DAY, RunOptions.plain());
            assertIdentity(s, 2);
            assertThat(quarantine(w.dsl())).containsExactly("0 contract_violation the row breaks its contract: [{\"column\":\"seen\","
                    + "\"reason\":\"' 2021-09-16' has white space around it; the contract column may say trim: true to remove it"
                    + " (line 2)\",\"value\":\" 2021-09-16\"}]");
            assertThat(w.dsl().resultQuery("SELECT seen || ' ' || paid FROM bronze.amounts_raw WHERE id = 2").fetchOne(0))
                    .isEqualTo("2021-09-17 2021-09-17");
        }
    }

    @Test
    void aLongAllowedListGivesABoundedReasonAndSilverRuns() throws Exception {
        // before #21: 150 allowed values made every Silver run fail on REASON VARCHAR(1000) while contract check said the file matched
        String allowed = String.join(", ", java.util.stream.IntStream.range(0, 150).mapToObj(i -> "code_" + i).toList());
        PipelineSpec spec = amounts("  - {name: code, type: string, allowed: [" + allowed + "]}");
        Path dir = Files.createDirectories(home.resolve("landing/amounts/dt=2001-07-01"));
        Files.writeString(dir.resolve("a.csv"), "id,score,rounded,exact,code\n1,1,1,1,code_149\n2,2,2,2,code_150\n");
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            RunSummary s = new PipelineRunner(w, home).run(spec, DAY, RunOptions.plain());
            assertIdentity(s, 2);
            assertThat(s.silverRows()).isEqualTo(1);
            String reason = w.dsl().resultQuery("SELECT reason FROM sluice.quarantine WHERE rule_id = 'contract_allowed'")
                    .fetchOne(0, String.class);
            assertThat(reason).startsWith("code is not one of [code_0, code_1, ").endsWith(" more of 150] (contract amounts.v1)")
                    .hasSizeLessThan(1000);
        }
    }
}
