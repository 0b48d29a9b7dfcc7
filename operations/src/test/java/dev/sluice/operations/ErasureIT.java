package dev.sluice.operations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.operations.erase.Erasure;
import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.batch.job.RunSummary;
import dev.sluice.batch.testkit.PiiTestKey;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.warehouse.Warehouse;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.BadInputException;
import dev.sluice.core.Partition;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@code sluice erase} on the {@code la_riots} pipeline: a data subject's raw value leaves Bronze
 * and the quarantine (record and parse errors), the audit row says who, when, why and how many
 * rows, and a re-run rebuilds Silver without the subject's token.
 */
class ErasureIT {

    @TempDir
    Path home;

    @Test
    void aSubjectsRawValuesAreRedactedAndAudited() throws Exception {
        Path landing = Files.createDirectories(home.resolve("landing/la_riots"));
        Path csv = Files.copy(TestHome.withSampleData().resolve("landing/la_riots/la-riots.csv"), landing.resolve("la-riots.csv"));
        Files.writeString(csv, String.join("\n",
                "Erin,Quux,30,Unknown,White,1992-04-29,1 Test St.,Westlake,Homicide,-118.1,34.0",   // gender not allowed
                "Finn,Quux,130,Male,White,1992-04-29,2 Test St.,Westlake,Homicide,-118.1,34.0",     // age out of range
                "Gail,Quux,40,Female,White,,3 Test St.,Westlake,Homicide,-118.1,34.0",              // no death date
                "Hal,Quux,4O,Male,White,1992-04-29,4 Quux St.,Westlake,Homicide,-118.1,34.0") + "\n",
                StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        PipelineSpec spec = TestHome.projectSpec("la_riots", home, TestHome.freshH2Url(), "sa", "",
                Map.of("SLUICE_PII_KEY_V1", PiiTestKey.KEY));
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            PipelineRunner runner = new PipelineRunner(w, home);
            RunSummary apr29 = runner.run(spec, Partition.parseDaily("1992-04-29"), RunOptions.plain());
            assertThat(List.of(apr29.rowsRead(), apr29.bronzeRows(), apr29.silverRows(), apr29.quarantined()))
                    .containsExactly(12L, 12L, 8L, 4L);
            RunSummary apr30 = runner.run(spec, Partition.parseDaily("1992-04-30"), RunOptions.plain());
            assertThat(List.of(apr30.rowsRead(), apr30.silverRows(), apr30.quarantined())).containsExactly(29L, 28L, 1L);
            var dsl = w.dsl();
            assertThat(dsl.resultQuery("SELECT partition_key || ' ' || rule_id || ': ' || reason FROM sluice.quarantine"
                    + " ORDER BY partition_key, source_pos").fetch(0, String.class)).containsExactly(
                    "1992-04-29 contract_allowed: gender is not one of [Male, Female] (contract la_riots.v1)",
                    "1992-04-29 contract_range: age is outside [0, 120] (contract la_riots.v1)",
                    "1992-04-29 contract_violation: the row breaks its contract: [{\"column\":\"death_date\",\"reason\":"
                            + "\"empty value in a required column (line 67)\",\"value\":\"\"}]",
                    "1992-04-29 contract_violation: the row breaks its contract: [{\"column\":\"age\",\"reason\":"
                            + "\"'4O' is not an int (line 68)\",\"value\":\"4O\"}]",
                    "1992-04-30 contract_violation: the row breaks its contract: [{\"column\":\"death_date\",\"reason\":"
                            + "\"empty value in a required column (line 67)\",\"value\":\"\"}]");

            Erasure erasure = new Erasure(dsl, dev.sluice.engine.LayerEngines.on(w).forPipeline(spec));
            TransactionTemplate tx = new TransactionTemplate(w.transactionManager());
            Erasure.Result quux = tx.execute(s -> erasure.erase(spec, "last_name", "Quux", "dpo@example.org", "request 2026-117"));
            assertThat(quux.bronzeRows()).isEqualTo(5);       // four rows on 04-29, the dateless row again on 04-30
            assertThat(quux.quarantineRows()).isEqualTo(5);
            assertThat(quux.partitions()).containsExactly("1992-04-29", "1992-04-30");
            assertThat(dsl.fetchCount(dsl.selectFrom("bronze.la_riots_raw").where("last_name = 'Quux'"))).isZero();
            assertThat(dsl.fetchCount(dsl.selectFrom("bronze.la_riots_raw").where("last_name = '[erased #1]'"))).isEqualTo(5);
            assertThat(dsl.fetchCount(dsl.selectFrom("sluice.quarantine").where("record_json LIKE '%\"Quux\"%'"))).isZero();
            assertThat(dsl.fetchCount(dsl.selectFrom("sluice.quarantine").where("record_json LIKE '%[erased #1]%'"))).isEqualTo(5);
            // a number matches by value, also in the quarantined JSON (-118.1 written as -118.10)
            Erasure.Result lon = tx.execute(s -> erasure.erase(spec, "longitude", "-118.10", "dpo@example.org", "request 2026-122"));
            assertThat(List.of(lon.bronzeRows(), lon.quarantineRows())).containsExactly(5L, 5L);
            assertThat(dsl.fetchCount(dsl.selectFrom("sluice.quarantine").where("record_json LIKE '%-118.1%'"))).isZero();
            // the raw address is still there: erasure is per column, as requested
            assertThat(dsl.fetchCount(dsl.selectFrom("bronze.la_riots_raw").where("address = '4 Quux St.'"))).isEqualTo(1);

            // a value that failed to parse lives on in _parse_errors and the reason: erased there too
            Erasure.Result age = tx.execute(s -> erasure.erase(spec, "age", "40", "dpo@example.org", "request 2026-118"));
            assertThat(age.bronzeRows()).isEqualTo(2);   // Gail (40) on both days; Hal's '4O' is not the int 40
            Erasure.Result typo = tx.execute(s -> erasure.erase(spec, "first_name", "Hal", "dpo@example.org", "request 2026-119"));
            assertThat(typo.bronzeRows()).isEqualTo(1);
            assertThat(dsl.resultQuery("SELECT record_json FROM sluice.quarantine WHERE record_json LIKE '%[erased #4]%'")
                    .fetchOne(0, String.class)).doesNotContain("\"Hal\"");

            assertThat(dsl.resultQuery("SELECT erasure_id || ' ' || pipeline || ' ' || column_name || ' ' || requested_by || ' '"
                    + " || reason || ' ' || bronze_rows || ' ' || quarantine_rows || ' ' || partitions FROM sluice.erasure_log"
                    + " ORDER BY erasure_id").fetch(0, String.class)).containsExactly(
                    "1 la_riots last_name dpo@example.org request 2026-117 5 5 1992-04-29,1992-04-30",
                    "2 la_riots longitude dpo@example.org request 2026-122 5 5 1992-04-29,1992-04-30",
                    "3 la_riots age dpo@example.org request 2026-118 2 2 1992-04-29,1992-04-30",
                    "4 la_riots first_name dpo@example.org request 2026-119 1 1 1992-04-29");
            assertThat(dsl.resultQuery("SELECT * FROM sluice.erasure_log").fetch().formatCSV()).doesNotContain("Quux", "Hal");

            // Silver holds tokens; a re-run rebuilds them from the redacted Bronze
            String token = PiiTestKey.hmac("Vela");
            assertThat(dsl.fetchCount(dsl.selectFrom("silver.la_riots_deaths").where("last_name_token = ?", token))).isEqualTo(1);
            Erasure.Result vela = tx.execute(s -> erasure.erase(spec, "last_name", "Vela", "dpo@example.org", "request 2026-120"));
            assertThat(vela.partitions()).containsExactly("1992-04-29");
            RunSummary rebuilt = runner.run(spec, Partition.parseDaily("1992-04-29"), RunOptions.plain().withRerun(true));
            assertThat(rebuilt.silverRows()).isEqualTo(8);
            assertThat(dsl.fetchCount(dsl.selectFrom("silver.la_riots_deaths").where("last_name_token = ?", token))).isZero();
            assertThat(dsl.fetchCount(dsl.selectFrom("silver.la_riots_deaths").where("last_name_token = ?",
                    PiiTestKey.hmac("[erased #5]")))).isEqualTo(1);

            assertThatThrownBy(() -> erasure.erase(spec, "phone", "x", "dpo", "r")).isInstanceOf(BadInputException.class)
                    .hasMessageContaining("no source contract of pipeline la_riots has a column phone");
            // a value that is not of the column's type is looked for in the raw text only
            Erasure.Result typo40 = tx.execute(s -> erasure.erase(spec, "age", "4O", "dpo", "request 2026-121"));
            assertThat(List.of(typo40.bronzeRows(), typo40.quarantineRows())).containsExactly(1L, 1L);
            assertThat(dsl.fetchCount(dsl.selectFrom("bronze.la_riots_raw").where("_parse_errors LIKE '%4O%'"))).isZero();
            assertThat(dsl.fetchCount(dsl.selectFrom("sluice.quarantine").where("record_json LIKE '%4O%' OR reason LIKE '%4O%'"))).isZero();
            assertThatThrownBy(() -> erasure.erase(spec, "age", "", "dpo", "r")).isInstanceOf(BadInputException.class)
                    .hasMessageContaining("the value is empty");
        }
    }
}
