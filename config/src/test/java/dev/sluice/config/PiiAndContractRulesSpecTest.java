package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** PII tags and policies, HMAC keys, allowed values and column partitions in specs and contracts. */
class PiiAndContractRulesSpecTest {

    private static final String KEY = "0123456789abcdef0123456789abcdef-not-a-real-key";

    @TempDir
    Path dir;

    private static PipelineSpecLoader loader(Map<String, String> env) {
        return new PipelineSpecLoader(new SluiceEnvironment(env).interpolator());
    }

    private Path write(String contract, String source, String pii) throws Exception {
        Files.createDirectories(dir.resolve("contracts"));
        Files.writeString(dir.resolve("contracts/people.v1.yaml"), contract);
        Path spec = dir.resolve("people.yaml");
        Files.writeString(spec, """
                pipeline: people
                warehouse: {url: "jdbc:h2:mem:x"}
                %s
                sources:
                  - name: people
                    format: csv
                    path: /landing/people.csv
                    contract: contracts/people.v1.yaml
                %s
                layers:
                  bronze: [{table: bronze.people_raw, source: people}]
                  silver:
                    - {table: silver.people, input: bronze.people_raw, key: [name], columns: {name: string}, sql: "SELECT name FROM {input} p"}
                  gold:
                    - {table: gold.people, input: silver.people, key: [n], columns: {n: long}, sql: "SELECT COUNT(*) AS n FROM {input} s"}
                """.formatted(pii, source.indent(4).stripTrailing()));
        return spec;
    }

    private static final String CONTRACT = """
            contract: people
            version: 1
            key: [name, born]
            columns:
              - {name: name, type: string, nullable: false, pii: true}
              - {name: born, type: date, nullable: false}
              - {name: email, type: string, pii: true}
              - {name: age, type: int, pii: true, min: 0, max: 120}
              - {name: gender, type: string, allowed: [f, m, x]}
            """;

    private static final String KEYS = """
            pii:
              active_key: v2
              keys:
                v1: ${PII_V1}
                v2: ${PII_V2}
            """;

    @Test
    void policiesTagsKeysAndAllowedValuesLoad() throws Exception {
        Path spec = write(CONTRACT, """
                partition_column: born
                pii: {name: hash, email: mask, age: drop}
                """, KEYS);
        PipelineSpec s = loader(Map.of("PII_V1", KEY + "1", "PII_V2", KEY + "2")).load(spec);
        SourceSpec people = s.source("people").orElseThrow();
        assertThat(people.partitionColumnName()).contains("born");
        assertThat(people.pii()).isEqualTo(Map.of("name", PiiPolicy.HASH, "email", PiiPolicy.MASK, "age", PiiPolicy.DROP));
        assertThat(people.policy("gender")).isEqualTo(PiiPolicy.KEEP);
        assertThat(people.contract().key()).containsExactly("name", "born");
        ColumnSpec age = people.contract().columns().get(3);
        assertThat(age.pii()).isTrue();
        assertThat(age.allowed()).isEqualTo(new AllowedValues("0", "120", List.of()));
        assertThat(people.contract().columns().get(4).allowed().values()).containsExactly("f", "m", "x");
        assertThat(s.piiKeys().activeVersion()).contains("v2");
        assertThat(new String(s.piiKeys().activeKey(), java.nio.charset.StandardCharsets.UTF_8)).isEqualTo(KEY + "2");
        assertThat(s.piiKeys().toString()).doesNotContain(KEY).contains("v1", "v2");
        assertThat(s.toString()).doesNotContain(KEY);
    }

    @Test
    void everyPiiMistakeIsReportedWithoutShowingAKey() throws Exception {
        Path spec = write(CONTRACT, """
                partition_column: gender
                pii: {email: mask, age: mask, gender: hash, phone: drop, name: shred}
                """, """
                pii:
                  active_key: v3
                  keys:
                    v1: ${PII_V1}
                """);
        List<SpecProblem> problems = loader(Map.of("PII_V1", "short-secret")).validate(spec);
        assertThat(problems).extracting(p -> p.keyPath() + " = " + p.value() + ": " + p.reason()).containsExactlyInAnyOrder(
                "sources[0].partition_column = gender: a partition column is a date or timestamp; gender is string",
                "sources[0].pii.age = mask: mask keeps the shape of text; age is int: use hash or drop",
                "sources[0].pii.gender = gender: not tagged PII in contract people.v1; tag it (pii: true) or remove the policy",
                "sources[0].pii.phone = phone: not a column of contract people.v1",
                "sources[0].pii.name = shred: unknown PII policy; one of hash, mask, drop, keep",
                "pii.keys.v1 = ****: an HMAC key has at least 32 bytes (e.g. openssl rand -base64 32); this one is shorter",
                "pii.active_key = v3: not one of pii.keys: v1");
        assertThat(problems.toString()).doesNotContain("short-secret");
    }

    @Test
    void silverSqlReadsBronzeAndFilesOnlyThroughInputQuotedOrNot() throws Exception {
        Path spec = write(CONTRACT, "partition_column: born\npii: {name: hash, email: mask, age: drop}", KEYS);
        String text = Files.readString(spec);
        for (String sneak : List.of("\\\"BRONZE\\\".\\\"PEOPLE_RAW\\\"", "`bronze`.`people_raw`", "sluice.bronze.people_raw", "Bronze . people_raw",
                "parquet.`/landing/people.parquet`", "CSVREAD('/landing/people.csv')", "file_read('/landing/people.csv')")) {
            Files.writeString(spec, text.replace("sql: \"SELECT name FROM {input} p\"",
                    "sql: \"SELECT name, (SELECT MAX(x) FROM " + sneak + " x) AS leak FROM {input} p\""));
            assertThat(loader(Map.of("PII_V1", KEY + "1", "PII_V2", KEY + "2")).validate(spec)).as(sneak)
                    .extracting(SpecProblem::reason).singleElement().asString().contains("only through {input}");
        }
    }

    @Test
    void aHashPolicyNeedsKeys() throws Exception {
        Path spec = write(CONTRACT, "partition_column: born\npii: {name: hash, email: keep}", "");
        // (age has no policy: design rule pii.policy, DesignRulesCliTest, not a spec problem)
        assertThat(loader(Map.of()).validate(spec)).extracting(SpecProblem::reason).containsExactly(
                "a source hashes PII: give pii.keys (versioned HMAC keys from environment variables) and pii.active_key");
    }

    @Test
    void contractValueRulesAreCheckedAgainstTheColumnType() throws Exception {
        Path spec = write("""
                contract: people
                version: 1
                key: [name, nobody]
                columns:
                  - {name: name, type: string, min: a}
                  - {name: born, type: date, min: 2001-02-30}
                  - {name: age, type: int, min: 10, max: 5, allowed: [1, two]}
                  - {name: flag, type: boolean, allowed: []}
                """, "partition_column: born", "");
        assertThat(loader(Map.of()).validate(spec)).extracting(p -> p.keyPath() + " = " + p.value() + ": " + p.reason())
                .containsExactlyInAnyOrder(
                        "columns[0].min = a: a range applies to numbers, dates and timestamps; use allowed for a string",
                        "columns[1].min = 2001-02-30: not a date value",
                        "columns[2].allowed[1] = two: not an int value",
                        "columns[2].max = 5: is below min 10",
                        "columns[3].allowed = []: an empty set allows nothing; list the values or leave allowed out",
                        "key[1] = nobody: a key column must be one of the contract's columns");
    }

    @Test
    void decimalTrimAndLossyLoadAndEveryMistakeIsReported() throws Exception {
        Path ok = write("""
                contract: people
                version: 1
                columns:
                  - {name: born, type: date, trim: true}
                  - {name: amount, type: 'DECIMAL( 12 , 2 )', min: -999.5, max: 99999999.99, allowed: [0, 1.50]}
                  - {name: score, type: double, lossy: true}
                """, "partition_column: born", "");
        ContractSpec c = loader(Map.of()).load(ok).sources().get(0).contract();
        assertThat(c.columns()).extracting(ColumnSpec::typeId, ColumnSpec::trim, ColumnSpec::lossy).containsExactly(
                tuple("date", true, false), tuple("decimal(12,2)", false, false), tuple("double", false, true));
        assertThat(c.columns().get(1).sqlType()).isEqualTo("DECIMAL(12,2)");
        Path bad = write("""
                contract: people
                version: 1
                columns:
                  - {name: born, type: date, trim: yes please}
                  - {name: a, type: decimal}
                  - {name: b, type: 'decimal(39,2)'}
                  - {name: c, type: 'decimal(5,6)'}
                  - name: d
                    type: decimal(5,2)
                    max: 1234.5
                    allowed: [0.125]
                  - {name: e, type: long, lossy: true}
                  - {name: %s, type: int}
                  - {name: f, type: decimal(5,2)}
                """.formatted("x".repeat(64)), "partition_column: born", "");
        assertThat(loader(Map.of()).validate(bad)).extracting(p -> p.keyPath() + " = " + p.value() + ": " + p.reason())
                .containsExactlyInAnyOrder(
                        "columns[0].trim = yes please: true or false",
                        "columns[1].type = decimal: a decimal has a precision and scale: decimal(p,s), e.g. decimal(12,2)",
                        "columns[2].type = decimal(39,2): a decimal has at most 38 digits (Spark's and Iceberg's limit, for the lakehouse engine)",
                        "columns[3].type = decimal(5,6): decimal(p,s) with a precision p of 1 to 38 digits and a scale s of 0 to p, e.g. decimal(12,2)",
                        "columns[4].max = 1234.5: does not fit: 4 digits before the point, decimal(5,2) holds 3",
                        "columns[4].allowed[0] = 0.125: does not fit: 3 digits after the point, decimal(5,2) keeps 2 (it would be rounded)",
                        "columns[5].lossy = true: lossy lets a float or double column round a value it cannot hold exactly; this column is long",
                        "columns[6].name = " + "x".repeat(64) + ": a column name is a lower-case identifier [a-z][a-z0-9_]* of at most 63 characters",
                        "columns[7].type = decimal(5: a decimal is decimal(p,s); in a YAML flow map { … } a comma ends the value:"
                                + " quote it, e.g. type: 'decimal(12,2)'",
                        "columns[7].2) = null: unknown key; allowed here: allowed, description, lossy, max, min, name, nullable, path, pii, trim, type");
    }

    @Test
    void csvOptionsLoadAndEveryMistakeIsReported() throws Exception {
        String contract = "contract: people\nversion: 1\ncolumns:\n  - {name: born, type: date}\n";
        Path ok = write(contract, """
                partition_column: born
                csv: {delimiter: "\\t", quote: "'", escape: "\\\\", encoding: ISO-8859-1, null_values: [NA, "\\\\N"]}""", "");
        CsvOptions csv = loader(Map.of()).load(ok).sources().get(0).csv();
        assertThat(csv).isEqualTo(new CsvOptions('\t', '\'', '\\', java.nio.charset.StandardCharsets.ISO_8859_1, List.of("NA", "\\N")));
        Path bad = write(contract, """
                partition_column: born
                csv: {delimiter: ';;', quote: ";", encoding: EBCDIC-XYZ, null_values: ['', null], header: none}""", "");
        assertThat(loader(Map.of()).validate(bad)).extracting(p -> p.keyPath() + " = " + p.value() + ": " + p.reason())
                .containsExactlyInAnyOrder(
                        "sources[0].csv.delimiter = ;;: one character (a tab is \"\\t\" in double quotes)",
                        "sources[0].csv.encoding = EBCDIC-XYZ: not a character set this JVM knows; e.g. UTF-8, ISO-8859-1, windows-1252, UTF-16",
                        "sources[0].csv.null_values[0] = '': an empty field is always NULL; list the other texts that mean NULL",
                        "sources[0].csv.null_values[1] = null: YAML reads an unquoted null or ~ as no value; quote the text, e.g. 'null'",
                        "sources[0].csv.header = \"none\": unknown key; allowed here: delimiter, encoding, escape, null_values, quote");
        Path same = write(contract, "partition_column: born\ncsv: {delimiter: ';', quote: ';'}", "");
        assertThat(loader(Map.of()).validate(same)).extracting(SpecProblem::reason)
                .containsExactly("delimiter, quote and escape are three different characters");
    }

    @Test
    void yamlBooleansInAStringSetAreRefused() throws Exception {
        Path spec = write("""
                contract: people
                version: 1
                columns:
                  - {name: born, type: date}
                  - {name: consent, type: string, allowed: [yes, no, 'maybe']}
                """, "partition_column: born", "");
        assertThat(loader(Map.of()).validate(spec)).extracting(p -> p.keyPath() + " = " + p.value() + ": " + p.reason())
                .containsExactlyInAnyOrder(
                        "columns[1].allowed[0] = true: YAML reads an unquoted yes/no/on/off/true/false as a boolean; quote it (e.g. 'yes') for a string column",
                        "columns[1].allowed[1] = false: YAML reads an unquoted yes/no/on/off/true/false as a boolean; quote it (e.g. 'yes') for a string column");
    }

    @Test
    void aPartitionColumnCannotBeHashedMaskedOrDropped() throws Exception {
        Path spec = write("""
                contract: people
                version: 1
                columns:
                  - {name: name, type: string, pii: true}
                  - {name: born, type: date, pii: true}
                """, "partition_column: born\npii: {name: keep, born: drop}", "");
        assertThat(loader(Map.of()).validate(spec)).extracting(p -> p.keyPath() + " = " + p.value() + ": " + p.reason())
                .containsExactly("sources[0].pii = born: the partition column born picks each row's day and Silver partitions by it;"
                        + " it cannot be dropped (keep it, or partition by another column)");
    }

    @Test
    void inspectionNeedsNoHmacKey() throws Exception {
        Path spec = write(CONTRACT, "partition_column: born\npii: {name: hash, email: mask, age: drop}", KEYS);
        assertThat(loader(Map.of()).validate(spec)).extracting(SpecProblem::reason).allMatch(r -> r.contains("PII_V"));
        PipelineSpec inspected = PipelineSpecLoader.forInspection(new SluiceEnvironment(Map.of()).interpolator()).load(spec);
        assertThat(inspected.piiKeys().activeVersion()).isEmpty();
        assertThat(inspected.source("people").orElseThrow().pii()).containsEntry("name", PiiPolicy.HASH);
    }
}
