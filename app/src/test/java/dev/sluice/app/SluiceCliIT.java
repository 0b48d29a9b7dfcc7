package dev.sluice.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.app.cli.ExitCodes;
import dev.sluice.app.cli.SluiceCommand;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.SluiceEnvironment;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line as a user meets it: exit codes, messages and summaries (real H2, real sample data). */
class SluiceCliIT {

    @TempDir
    Path tmp;

    record Outcome(int code, String out, String err) {
    }

    private Outcome sluice(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Map<String, String> all = new HashMap<>(env);
        all.putIfAbsent("SLUICE_PIPELINES", TestHome.projectRoot().resolve("pipelines").toString());
        // never the default ./var: a test writes nothing into the working tree
        all.putIfAbsent("SLUICE_HOME", tmp.resolve("home").toString());
        int code = SluiceCommand.execute(new SluiceEnvironment(all), new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Outcome(code, out.toString(), err.toString());
    }

    private Map<String, String> sampleHomeWithFreshWarehouse() {
        return Map.of("SLUICE_HOME", TestHome.withSampleData().toString(), "SLUICE_WAREHOUSE_URL", TestHome.freshH2Url());
    }

    @Test
    void validateListsEveryProblemAndExits2() throws Exception {
        Path spec = tmp.resolve("broken.yaml");
        Files.writeString(spec, """
                pipeline: broken
                warehouse: {url: "oracle:thin"}
                sources:
                  - {name: s, format: xml, path: "x/{partition}", contract: nope.yaml}
                layers:
                  bronze: [{table: bronze.s_raw, source: s}]
                  silver: [{table: silver.s, input: bronze.s_raw, key: [k], columns: {k: long}, sql: "SELECT 1"}]
                  gold: []
                """);
        Outcome o = sluice(Map.of(), "validate", spec.toString());
        assertThat(o.code()).isEqualTo(ExitCodes.INVALID);
        assertThat(o.err()).contains("5 problem(s)")
                .contains("warehouse.url = oracle:thin: a JDBC URL starting jdbc:h2: or jdbc:postgresql:")
                .contains("sources[0].format = xml: unknown format")
                .contains("sources[0].contract = nope.yaml: no such contract file")
                .contains("layers.silver[0].sql = SELECT 1: the SELECT reads its input through {input}")
                .contains("layers.gold = []: each layer needs at least one table");
        Outcome valid = sluice(Map.of(), "validate", TestHome.projectRoot().resolve("pipelines/flights.yaml").toString());
        assertThat(valid.code()).isZero();
        assertThat(valid.out()).contains("valid");
    }

    @Test
    void aMissingLandingZoneNamesTheCommandThatCreatesIt() {
        Outcome o = sluice(Map.of("SLUICE_HOME", tmp.resolve("empty-home").toString()),
                "run", "flights", "--partition", "2001-07-01");
        assertThat(o.code()).isEqualTo(ExitCodes.INVALID);
        assertThat(o.err()).contains("no landed files for source 'flights'").contains("`sluice sample-data`")
                .doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void runRefuseRerun() {
        Map<String, String> env = sampleHomeWithFreshWarehouse();
        Outcome first = sluice(env, "run", "flights", "--partition", "2001-07-01");
        assertThat(first.code()).as(first.err()).isZero();
        assertThat(first.out()).contains("flights 2001-07-01: COMPLETED").contains("attempt 0")
                .containsPattern("rows read +6\\n").containsPattern("Bronze rows +6\\n")
                .containsPattern("Silver rows +6\\n").containsPattern("Gold rows +9\\n");

        Outcome again = sluice(env, "run", "flights", "--partition", "2001-07-01");
        assertThat(again.code()).isEqualTo(ExitCodes.REFUSED);
        assertThat(again.err()).contains("already COMPLETED").contains("add --rerun to open attempt 1");

        Outcome rerun = sluice(env, "run", "flights", "--partition", "2001-07-01", "--rerun");
        assertThat(rerun.code()).isZero();
        assertThat(rerun.out()).contains("attempt 1").containsPattern("rows read +0\\n")
                .containsPattern("Silver rows +6\\n").contains("(landed files already in Bronze)");

        Outcome sql = sluice(env, "sql", "SELECT attempt, status FROM sluice.run WHERE partition_key = '2001-07-01' ORDER BY attempt");
        assertThat(sql.out()).containsPattern("\\|\\s+0\\|COMPLETED").containsPattern("\\|\\s+1\\|COMPLETED").contains("2 row(s)");

        Outcome quality = sluice(env, "quality", "show", "flights", "--partition", "2001-07-01");
        assertThat(quality.code()).as(quality.err()).isZero();
        assertThat(quality.out()).containsPattern("\\|bronze.flights_raw +\\|SOURCE +\\|rows_landed +\\|COMPLETENESS\\|ERROR +\\|PASSED")
                .containsPattern("\\|silver.flights +\\|TRANSFORM\\|day_complete +\\|FRESHNESS +\\|WARN +\\|WARNED")
                .containsPattern("\\|gold.airport_daily_delays\\|SINK +\\|one_row_per_airport");
        Outcome json = sluice(env, "quality", "show", "flights", "--partition", "2001-07-01", "--format", "json");
        assertThat(json.out()).contains("\"check_id\":\"row_count_in_line\"").contains("\"status\":\"INSUFFICIENT_HISTORY\"");
        Outcome none = sluice(env, "quality", "show", "flights", "--partition", "2001-03-01");
        assertThat(none.out()).contains("flights 2001-03-01: no quality results recorded");
        // the hot path never ran: the reconciliation has nothing to compare, NO_DATA, not a difference
        assertThat(quality.out()).containsPattern(
                "\\|gold.airport_delays_live *\\|SINK *\\|reconcile_airport_daily_delays *\\|COMPLETENESS *\\|WARN *\\|NO_DATA");
        assertThat(json.out()).contains("\"check_id\":\"reconcile_airport_daily_delays\"").contains("\"status\":\"NO_DATA\"");

        // every pipeline, one line each, and as JSON
        Outcome all = sluice(env, "status");
        assertThat(all.code()).as(all.err()).isZero();
        assertThat(all.out()).containsPattern("(?m)^pipeline +last partition +freshness +failed or stopped partitions$")
                .containsPattern("(?m)^earthquakes +- +never +none$")
                .containsPattern("(?m)^flights +2001-07-01 +ok +none$")
                .containsPattern("(?m)^flights_lake +- +never +none$")
                .containsPattern("(?m)^la_riots +- +never +none$");
        Outcome allJson = sluice(env, "status", "--format", "json");
        assertThat(allJson.code()).isZero();
        assertThat(allJson.out().replaceAll("\\s+", "")).contains("{\"pipeline\":\"flights\",\"last_partition\":\"2001-07-01\","
                + "\"freshness\":\"ok\",\"failed_partitions\":[],\"problem\":null}");
    }

    @Test
    void aRangeRunsEachPartitionAndTotals() {
        Map<String, String> env = sampleHomeWithFreshWarehouse();
        Outcome o = sluice(env, "run", "flights", "--from", "2001-06-30", "--to", "2001-07-01");
        assertThat(o.code()).as(o.err()).isZero();
        assertThat(o.out()).containsPattern("2001-06-30 +COMPLETED +15,626 +15,626 +15,623 +3 +0")
                .containsPattern("2001-07-01 +COMPLETED +6 +6 +6 +0 +0")
                .containsPattern("total +15,632 +15,632 +15,629 +3 +0")
                // the total row's elapsed is the range's wall time, the one the closing line names
                .containsPattern("total [^\\n]* ([0-9.]+ s)\\n(?s:.*)2 partitions in \\1 wall time");
        Outcome again = sluice(env, "run", "flights", "--from", "2001-06-30", "--to", "2001-07-01");
        assertThat(again.code()).as("nothing ran: every partition was COMPLETED already").isEqualTo(ExitCodes.REFUSED);
        assertThat(again.out()).containsPattern("2001-06-30 +SKIPPED +already COMPLETED");
        Outcome beyond = sluice(env, "run", "flights", "--from", "2001-07-01", "--to", "2001-07-02");
        assertThat(beyond.code()).isEqualTo(ExitCodes.INVALID);
        assertThat(beyond.out()).contains("2001-07-02   MISSING");
    }

    @Test
    void helpBadDatesAndWritesAreAnsweredPlainly() {
        Outcome help = sluice(Map.of(), "sql", "--help");
        assertThat(help.code()).isZero();
        assertThat(help.out()).contains("Usage: sluice sql");
        Outcome badDate = sluice(Map.of(), "run", "flights", "--partition", "2001-13-01");
        assertThat(badDate.code()).isEqualTo(ExitCodes.INVALID);
        assertThat(badDate.err()).contains("'2001-13-01' has the form YYYY-MM-DD but is not a date: there is no month 13")
                .doesNotContain("java.time");
        Outcome noSuchDay = sluice(Map.of(), "run", "flights", "--partition", "2001-02-30");
        assertThat(noSuchDay.code()).isEqualTo(ExitCodes.INVALID);
        assertThat(noSuchDay.err()).isEqualTo("sluice: --partition: '2001-02-30' has the form YYYY-MM-DD but is not a date:"
                + " February 2001 has 28 days\n");
        Outcome noSuchFrom = sluice(Map.of(), "run", "flights", "--from", "2001-02-29", "--to", "2001-03-01");
        assertThat(noSuchFrom.code()).isEqualTo(ExitCodes.INVALID);
        assertThat(noSuchFrom.err()).contains("'2001-02-29' has the form YYYY-MM-DD but is not a date: February 2001 has 28 days");
        Outcome badForm = sluice(Map.of(), "run", "flights", "--partition", "2001-2-3");
        assertThat(badForm.err()).contains("'2001-2-3' is not a date of the form YYYY-MM-DD");
        Outcome write = sluice(Map.of(), "sql", "DELETE FROM sluice.run");
        assertThat(write.code()).isEqualTo(ExitCodes.INVALID);
        assertThat(write.err()).contains("sluice sql only reads");
        // SHOW and EXPLAIN were offered, and then refused by both engines' parsers as not a query
        Outcome show = sluice(Map.of(), "sql", "SHOW TABLES");
        assertThat(show.code()).isEqualTo(ExitCodes.INVALID);
        assertThat(show.err()).contains("sluice sql only reads: start the query with SELECT, WITH, VALUES or TABLE");
        Outcome smuggled = sluice(sampleHomeWithFreshWarehouse(), "sql", "SELECT 1; DROP TABLE sluice.run");
        assertThat(smuggled.code()).isEqualTo(ExitCodes.INVALID);
        assertThat(smuggled.err()).contains("sluice sql runs exactly one SELECT; it never writes");
    }

    @Test
    void aMisspelledPipelineIsNamedWithTheNearestAndTheKnownOnes() {
        Path pipelines = TestHome.projectRoot().resolve("pipelines");
        Outcome run = sluice(Map.of(), "run", "flihgts", "--partition", "2001-02-01");
        assertThat(run.code()).isEqualTo(ExitCodes.INVALID);
        assertThat(run.err()).isEqualTo("sluice: PIPELINE: no pipeline 'flihgts': " + pipelines.resolve("flihgts.yaml")
                + " does not exist; did you mean flights? (pipelines in " + pipelines + ": earthquakes, flights, flights_lake, la_riots)\n");
        Outcome far = sluice(Map.of(), "status", "weather");
        assertThat(far.code()).isEqualTo(ExitCodes.INVALID);
        assertThat(far.err()).isEqualTo("sluice: PIPELINE: no pipeline 'weather': " + pipelines.resolve("weather.yaml")
                + " does not exist (pipelines in " + pipelines + ": earthquakes, flights, flights_lake, la_riots)\n");
    }

    @Test
    void aSpecCopiedAwayFromItsContractsIsOneProblemPerMissingFile() throws Exception {
        Path copy = Files.copy(TestHome.projectRoot().resolve("pipelines/flights.yaml"), tmp.resolve("flights.yaml"));
        Outcome o = sluice(Map.of(), "validate", copy.toString());
        assertThat(o.code()).isEqualTo(ExitCodes.INVALID);
        assertThat(o.err()).startsWith(copy + ": 2 problem(s)\n")
                .contains("sources[0].contract = contracts/flights.v1.yaml: no such contract file (" + tmp.resolve("contracts/flights.v1.yaml")
                        + "; a contract path is relative to the spec's folder)")
                .contains("sources[1].contract = contracts/airports.v1.yaml: no such contract file")
                .doesNotContain("not a column").doesNotContain("hot_path");
    }

    @Test
    void aMisspelledDatasetIsNotNothingRecorded() {
        Map<String, String> env = Map.of("SLUICE_WAREHOUSE_URL", TestHome.freshH2Url());
        for (String query : new String[] {"upstream", "downstream", "runs"}) {
            Outcome o = sluice(env, "lineage", query, "gold.airport_daly_delays");
            assertThat(o.code()).as(query).isEqualTo(ExitCodes.INVALID);
            assertThat(o.err()).as(query).isEqualTo("sluice: DATASET: no dataset 'gold.airport_daly_delays' is declared by pipeline flights"
                    + " or recorded in the lineage of its warehouse; did you mean gold.airport_daily_delays?\n");
        }
        Outcome impact = sluice(env, "lineage", "impact", "landing/flight", "--partition", "2001-07-01");
        assertThat(impact.code()).isEqualTo(ExitCodes.INVALID);
        assertThat(impact.err()).contains("no dataset 'landing/flight'").contains("did you mean landing/flights?");
        Outcome far = sluice(env, "lineage", "upstream", "gold.weather");
        assertThat(far.err()).contains("no dataset 'gold.weather'").contains("; known: bronze.airports_raw, bronze.flight_events,")
                .contains("gold.airport_daily_delays, gold.airport_delays_live").contains("landing/airports/airports.csv, landing/flights, silver.airports, silver.flights\n");
        // declared but never run: exit 0, and said so
        Outcome declared = sluice(env, "lineage", "upstream", "gold.airport_daily_delays");
        assertThat(declared.code()).as(declared.err()).isZero();
        assertThat(declared.out()).isEqualTo("gold.airport_daily_delays: nothing upstream recorded"
                + " (declared, but no recorded run reads or writes it yet)\n");

        Outcome table = sluice(env, "lineage", "columns", "gold.airport_daily_delays");
        assertThat(table.code()).isEqualTo(ExitCodes.INVALID);
        assertThat(table.err()).startsWith("sluice: DATASET.COLUMN: 'gold.airport_daily_delays' is a dataset: lineage columns takes one of"
                + " its columns, of the form schema.table.column, e.g. gold.airport_daily_delays.flight_date (its columns: flight_date, origin,");
        Outcome column = sluice(env, "lineage", "columns", "gold.airport_daily_delays.avg_delay");
        assertThat(column.code()).isEqualTo(ExitCodes.INVALID);
        assertThat(column.err()).isEqualTo("sluice: DATASET.COLUMN: gold.airport_daily_delays has no column 'avg_delay';"
                + " known: avg_delay_min, delayed_15, flight_date, flights, max_delay_min, origin, total_distance_mi\n");
        Outcome typo = sluice(env, "lineage", "columns", "gold.airport_daily_delays.avg_dealy_min");
        assertThat(typo.err()).endsWith("has no column 'avg_dealy_min'; did you mean avg_delay_min?\n");
        Outcome noDot = sluice(env, "lineage", "columns", "flights");
        assertThat(noDot.err()).contains("'flights' is not of the form schema.table.column (e.g. gold.airport_daily_delays.avg_delay_min)");
    }

    @Test
    void sqlPrintsDecimalsPlainly() {
        Outcome o = sluice(Map.of("SLUICE_WAREHOUSE_URL", TestHome.freshH2Url()), "sql",
                "SELECT CAST(10 AS DECFLOAT) AS ten, CAST(1200 AS DECFLOAT) AS twelve_hundred, CAST(0.0000001 AS DECFLOAT) AS tiny,"
                        + " CAST(12.50 AS DECIMAL(10, 2)) AS price");
        assertThat(o.code()).as(o.err()).isZero();
        assertThat(o.out()).doesNotContain("E+").doesNotContain("E-")
                .contains("|  10|          1200|0.0000001|12.50|").contains("1 row(s)");
    }

    @Test
    void sqlPrintsEveryValueWholeInEachFormat() {
        Map<String, String> env = Map.of("SLUICE_WAREHOUSE_URL", TestHome.freshH2Url());
        // the wide values in row 55 and 56: jOOQ's text format sized columns from the first 50 rows and printed "-..." and "z..."
        String query = "SELECT X AS n, CASE WHEN X = 55 THEN CAST(-17666666667 AS BIGINT) ELSE X END AS v,"
                + " CASE WHEN X = 56 THEN REPEAT('z', 40) ELSE 'a' END AS s FROM SYSTEM_RANGE(1, 60) ORDER BY X";
        Outcome table = sluice(env, "sql", query, "--max-rows", "100");
        assertThat(table.code()).as(table.err()).isZero();
        assertThat(table.out()).doesNotContain("...").contains("|  55|-17666666667|a ").contains("|" + "z".repeat(40) + "|")
                .contains("60 row(s)");
        Outcome csv = sluice(env, "sql", query + " OFFSET 54 ROWS", "--format", "csv");
        assertThat(csv.code()).as(csv.err()).isZero();
        assertThat(csv.out()).startsWith("N,V,S\r\n55,-17666666667,a\r\n56,56," + "z".repeat(40) + "\r\n").doesNotContain("row(s)");
        Outcome json = sluice(env, "sql", query + " OFFSET 54 ROWS FETCH FIRST 2 ROWS ONLY", "--format", "json");
        assertThat(json.code()).as(json.err()).isZero();
        assertThat(json.out()).isEqualTo("[{\"N\":55,\"V\":-17666666667,\"S\":\"a\"},{\"N\":56,\"V\":56,\"S\":\"" + "z".repeat(40) + "\"}]\n");
    }

    @Test
    void sqlReadsValuesExactlyAndRefusesWhatItCannotPrintWhole() {
        Map<String, String> env = Map.of("SLUICE_WAREHOUSE_URL", TestHome.freshH2Url());
        // a tester's break run: TIME(6) lost its fraction, binary and arrays printed Java object identities
        Outcome values = sluice(env, "sql", "SELECT CAST('10:11:12.123456' AS TIME(6)) AS t, TIMESTAMP '2001-07-01 00:00:00' AS ts,"
                + " X'00ff' AS b, ARRAY[1, 2] AS arr, CAST('0.0000001' AS DECIMAL(10, 7)) AS d", "--format", "json");
        assertThat(values.code()).as(values.err()).isZero();
        assertThat(values.out()).isEqualTo("[{\"T\":\"10:11:12.123456\",\"TS\":\"2001-07-01T00:00:00\",\"B\":\"\\\\x00ff\","
                + "\"ARR\":[1,2],\"D\":0.0000001}]\n");
        Outcome negative = sluice(env, "sql", "SELECT 1", "--max-rows", "-1");
        assertThat(negative.code()).isEqualTo(ExitCodes.INVALID);
        assertThat(negative.err()).contains("--max-rows: -1: print at least 1 row");
        Outcome twice = sluice(env, "sql", "SELECT 3 AS a, 4 AS a", "--format", "json");
        assertThat(twice.code()).isEqualTo(ExitCodes.INVALID);
        assertThat(twice.err()).contains("the result names column A twice");
        // CSV and JSON print every row unless --max-rows says otherwise, and say on stderr what it left out
        Outcome all = sluice(env, "sql", "SELECT X FROM SYSTEM_RANGE(1, 61)", "--format", "csv");
        assertThat(all.out().lines().count()).isEqualTo(62);
        assertThat(all.err()).isEmpty();
        Outcome cut = sluice(env, "sql", "SELECT X FROM SYSTEM_RANGE(1, 61)", "--format", "csv", "--max-rows", "3");
        assertThat(cut.out()).isEqualTo("X\r\n1\r\n2\r\n3\r\n");
        assertThat(cut.err()).isEqualTo("58 more row(s) not printed (--max-rows 3)\n");
    }

    @Test
    void contractCheckJudgesOneFileAndDiffListsRecordedDrift() {
        Path landing = TestHome.withSampleData().resolve("landing");
        String contracts = TestHome.projectRoot().resolve("pipelines/contracts/").toString();
        Outcome ok = sluice(Map.of(), "contract", "check", landing.resolve("flights/dt=2001-02-22/flights.parquet").toString(),
                "--contract", contracts + "/flights.v1.yaml");
        assertThat(ok.code()).as(ok.err()).isZero();
        assertThat(ok.out()).contains("matches contract flights.v1");
        Outcome refused = sluice(Map.of(), "contract", "check", landing.resolve("airports/airports.csv").toString(),
                "--contract", contracts + "/flights.v1.yaml");
        assertThat(refused.code()).isEqualTo(ExitCodes.INVALID);
        assertThat(refused.out()).contains("MISSING column 'date' (timestamp, required): REFUSED")
                .contains("ADDED column 'iata': REFUSED").contains("verdict: REFUSED");
        Outcome diff = sluice(sampleHomeWithFreshWarehouse(), "contract", "diff", "flights");
        assertThat(diff.code()).isZero();
        assertThat(diff.out()).contains("flights: no schema drift recorded");
    }

    @Test
    void eraseRedactsAndAuditsAndRefusesAnUnknownColumn() {
        Map<String, String> env = new HashMap<>(sampleHomeWithFreshWarehouse());
        env.put("SLUICE_PII_KEY_V1", "cli-test-key-0123456789abcdef0123456789abcdef");
        Outcome run = sluice(env, "run", "la_riots", "--partition", "1992-05-01");
        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out()).contains("la_riots 1992-05-01: COMPLETED").contains("Silver rows                     13");
        Outcome erase = sluice(env, "erase", "--pipeline", "la_riots", "--column", "last_name", "--value", "Alvarez",
                "--reason", "request 7", "--requested-by", "dpo");
        assertThat(erase.code()).as(erase.err()).isZero();
        assertThat(erase.out()).contains("erasure #1 of la_riots.last_name: 1 Bronze row(s) and 0 quarantined row(s) redacted")
                .contains("Partitions that held it: 1992-05-01")
                .contains("sluice run la_riots --partition <P> --rerun");
        Outcome audit = sluice(env, "sql", "--pipeline", "la_riots",
                "SELECT requested_by || ' ' || reason || ' ' || bronze_rows FROM sluice.erasure_log");
        assertThat(audit.out()).as(audit.err()).contains("dpo request 7 1");
        Outcome unknown = sluice(env, "erase", "--pipeline", "la_riots", "--column", "phone", "--value", "1", "--reason", "r");
        assertThat(unknown.code()).isEqualTo(ExitCodes.INVALID);
        assertThat(unknown.err()).contains("no source contract of pipeline la_riots has a column phone").doesNotContain("\tat ");
        Outcome noKey = sluice(sampleHomeWithFreshWarehouse(), "run", "la_riots", "--partition", "1992-05-01");
        assertThat(noKey.code()).isEqualTo(ExitCodes.INVALID);
        assertThat(noKey.err()).contains("pii.keys.v1").contains("SLUICE_PII_KEY_V1 is not set");
    }

    /** A small CSV pipeline under {@code home}: contract wide.v1 (id long required, v long, note string), drift fail. */
    private Path widePipeline(Path home) {
        return TestHome.writePipeline(home, "wide", """
                contract: wide
                version: 1
                drift: fail
                columns:
                  - {name: id, type: long, nullable: false}
                  - {name: v, type: long}
                  - {name: note, type: string}
                """, """
                pipeline: wide
                warehouse: {url: "${SLUICE_WAREHOUSE_URL}", user: sa, password: ""}
                backfill_window: P10000D
                design_exemptions:
                  - {rule: gates.source, reason: "a bad-input test pipeline: its runs must not wait for Spark"}
                  - {rule: gates.transform, reason: "a bad-input test pipeline: its runs must not wait for Spark"}
                  - {rule: gates.sink, reason: "a bad-input test pipeline: its runs must not wait for Spark"}
                sources:
                  - name: wide
                    format: csv
                    path: "${SLUICE_HOME}/landing/wide/dt={partition}"
                    contract: contracts/wide.v1.yaml
                    csv: {delimiter: ";", null_values: [NA]}
                layers:
                  bronze: [{table: bronze.wide_raw, source: wide, write: append, retention: P10000D}]
                  silver:
                    - table: silver.wide
                      input: bronze.wide_raw
                      partition: daily
                      write: overwrite-partition
                      key: [id]
                      columns: {id: long, v: long, note: string}
                      sql: SELECT id, v, note FROM {input} w
                  gold:
                    - table: gold.wide_total
                      input: silver.wide
                      partition: daily
                      write: overwrite-partition
                      key: [n]
                      columns: {n: long}
                      sql: SELECT COUNT(*) AS n FROM {input} s
                """);
    }

    private static Path land(Path home, String day, String content) throws Exception {
        Path dir = Files.createDirectories(home.resolve("landing/wide/dt=" + day));
        return Files.writeString(dir.resolve("w.csv"), content);
    }

    @Test
    void aPartitionRefusedBeforeAnyWriteExits2AloneAndInARangeNamedInTheSummary() throws Exception {
        // before #21 the range exited 1 and called the partition FAILED; alone it exited 2
        Path home = tmp.resolve("home");
        Path spec = widePipeline(home);
        land(home, "2001-07-01", "ID;V;Note\n1;10;NA\n2;20;x\n");
        land(home, "2001-07-02", "id;v;note;gate\n3;30;y;A1\n");
        Map<String, String> env = Map.of("SLUICE_HOME", home.toString(), "SLUICE_WAREHOUSE_URL", TestHome.freshH2Url());
        Outcome range = sluice(env, "run", spec.toString(), "--from", "2001-07-01", "--to", "2001-07-02");
        assertThat(range.code()).as(range.err()).isEqualTo(ExitCodes.INVALID);
        assertThat(range.out()).containsPattern("2001-07-01 +COMPLETED +2 +2 +2 ")
                .contains("2001-07-02   INVALID    landing/wide/dt=2001-07-02/w.csv, column 'gate': refused by contract wide.v1:"
                        + " ADDED column 'gate': REFUSED; nothing of the partition was written");
        Outcome alone = sluice(env, "run", spec.toString(), "--partition", "2001-07-02");
        assertThat(alone.code()).isEqualTo(ExitCodes.INVALID);
        // a trace id longer than sluice.run.trace_id holds failed the run's record (exit 70)
        Outcome trace = sluice(env, "run", spec.toString(), "--partition", "2001-07-03", "--trace-id", "t".repeat(101));
        assertThat(trace.code()).isEqualTo(ExitCodes.INVALID);
        assertThat(trace.err()).contains("sluice: --trace-id: a trace id has at most 100 characters; this one has 101");
        Outcome check = sluice(Map.of(), "contract", "check", home.resolve("landing/wide/dt=2001-07-01/w.csv").toString(),
                "--contract", home.resolve("spec/contracts/wide.v1.yaml").toString(), "--delimiter", ";");
        assertThat(check.code()).as(check.err()).isZero();
        assertThat(check.out()).contains("matches contract wide.v1");
    }

    @Test
    void aHugeHeaderIsNeitherEchoedWholeNorStoredWhole() throws Exception {
        // before #21 a 200 MB header line was printed whole by contract check and run, and run exited 70 on
        // schema_drift.column_name VARCHAR(200) for a name over 200 characters
        Path home = tmp.resolve("home");
        Path spec = widePipeline(home);
        StringBuilder header = new StringBuilder("id;v;note;" + "n".repeat(1_000_000));
        for (int i = 0; i < 100_000; i++) {
            header.append(";c").append(i);
        }
        Path file = land(home, "2001-07-01", header + "\n1;10;x\n");
        Map<String, String> env = Map.of("SLUICE_HOME", home.toString(), "SLUICE_WAREHOUSE_URL", TestHome.freshH2Url());
        Outcome run = sluice(env, "run", spec.toString(), "--partition", "2001-07-01");
        assertThat(run.code()).as(run.err().substring(0, Math.min(2000, run.err().length()))).isEqualTo(ExitCodes.INVALID);
        assertThat(run.out().length() + run.err().length()).isLessThan(10_000);
        assertThat(run.err()).contains("refused by contract wide.v1: ADDED column 'nnnn").contains("… (1000000 characters)': REFUSED");
        Outcome drift = sluice(env, "sql", "--pipeline", spec.toString(),
                "SELECT COUNT(*) || ' ' || MAX(LENGTH(column_name)) FROM sluice.schema_drift");
        assertThat(drift.out()).as(drift.err()).contains("100 200");
        Outcome check = sluice(Map.of(), "contract", "check", file.toString(), "--contract",
                home.resolve("spec/contracts/wide.v1.yaml").toString(), "--delimiter", ";");
        assertThat(check.code()).isEqualTo(ExitCodes.INVALID);
        assertThat(check.out().length() + check.err().length()).isLessThan(10_000);
        assertThat(check.out()).contains("  … and 99981 more changes").contains("verdict: REFUSED");
    }
}
