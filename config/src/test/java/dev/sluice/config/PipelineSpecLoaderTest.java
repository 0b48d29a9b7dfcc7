package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.core.DatasetRef;
import dev.sluice.core.Layer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PipelineSpecLoaderTest {

    private static final Path PROJECT_SPEC = projectRoot().resolve("pipelines/flights.yaml");

    static Path projectRoot() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            if (d.resolve("pipelines/flights.yaml").toFile().isFile()) {
                return d;
            }
        }
        throw new IllegalStateException("no project root");
    }

    private static PipelineSpecLoader loader(Map<String, String> env) {
        return new PipelineSpecLoader(new SluiceEnvironment(env).interpolator());
    }

    @Test
    void theFlightsSpecLoadsWithItsDefaults() {
        PipelineSpec spec = loader(Map.of()).load(PROJECT_SPEC);
        assertThat(spec.name()).isEqualTo("flights");
        assertThat(spec.warehouse().url()).isEqualTo("jdbc:h2:file:./var/warehouse;AUTO_SERVER=TRUE");
        assertThat(spec.warehouse().user()).isEqualTo("sa");
        assertThat(spec.warehouse().password()).isEmpty();
        assertThat(spec.sources()).extracting(SourceSpec::name).containsExactly("flights", "airports");
        assertThat(spec.source("flights").orElseThrow().pathTemplate()).isEqualTo("./var/landing/flights/dt={partition}");
        assertThat(spec.source("flights").orElseThrow().contract().columns()).extracting(ColumnSpec::name)
                .containsExactly("date", "delay", "distance", "origin", "destination");
        assertThat(spec.tables()).extracting(t -> t.table().qualifiedName()).containsExactly(
                "bronze.airports_raw", "bronze.flights_raw", "silver.airports", "silver.flights",
                "gold.airport_daily_delays", "gold.route_daily", "gold.airport_monthly_delays");
        TableSpec silver = spec.table(DatasetRef.parse("silver.flights")).orElseThrow();
        assertThat(silver.layer()).isEqualTo(Layer.SILVER);
        assertThat(silver.quarantine()).extracting(QuarantineRule::id).containsExactly(
                "required_value_missing", "delay_out_of_range", "distance_not_positive", "unknown_airport");
        assertThat(spec.table(DatasetRef.parse("silver.airports")).orElseThrow().partitioned()).isFalse();
        assertThat(spec.hash()).hasSize(64);
        TableSpec monthly = spec.table(DatasetRef.parse("gold.airport_monthly_delays")).orElseThrow();
        assertThat(monthly.rollup()).isEqualTo(dev.sluice.core.PartitionKind.MONTHLY);
        assertThat(monthly.outputPartition(new dev.sluice.core.Partition("2001-02-17")).key()).isEqualTo("2001-02");
        assertThat(monthly.outputPartition(new dev.sluice.core.Partition("2001-02")).key()).isEqualTo("2001-02");
        assertThat(TableSpec.inputRange(new dev.sluice.core.Partition("2001-02"), dev.sluice.core.PartitionKind.DAILY))
                .extracting(dev.sluice.core.Partition::key).containsExactly("2001-02-01", "2001-02-28");
        assertThat(spec.table(DatasetRef.parse("gold.route_daily")).orElseThrow().outputPartition(new dev.sluice.core.Partition("2001-02-17")).key())
                .isEqualTo("2001-02-17");
    }

    /** The flights spec with {@code from} replaced by {@code to}, in {@code dir} with its contracts; its problems. */
    private static List<SpecProblem> problemsOf(Path dir, String from, String to) throws Exception {
        String spec = java.nio.file.Files.readString(PROJECT_SPEC);
        assertThat(spec).contains(from);
        java.nio.file.Files.createDirectories(dir.resolve("contracts"));
        for (String c : List.of("contracts/flights.v1.yaml", "contracts/airports.v1.yaml")) {
            java.nio.file.Files.copy(PROJECT_SPEC.resolveSibling(c), dir.resolve(c), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        Path file = dir.resolve("flights.yaml");
        java.nio.file.Files.writeString(file, spec.replace(from, to));
        return loader(Map.of()).validate(file);
    }

    @Test
    void aRollupIsAGoldTableOfACoarserKindOverAPartitionedInput(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        assertThat(problemsOf(dir, "input: bronze.flights_raw\n      partition: daily",
                "input: bronze.flights_raw\n      partition: monthly"))
                .extracting(SpecProblem::keyPath, SpecProblem::value, SpecProblem::reason)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("layers.silver[1].partition", "monthly",
                        "one of daily (the pipeline's partitioning), none (a reference snapshot)"));
        assertThat(problemsOf(dir, "input: gold.airport_daily_delays\n      partition: monthly",
                "input: gold.airport_daily_delays\n      partition: hourly"))
                .extracting(SpecProblem::reason)
                .containsExactly("one of daily (the pipeline's partitioning), none (a reference snapshot), or a rollup: monthly");
        assertThat(problemsOf(dir, "input: gold.airport_daily_delays\n      partition: monthly",
                "input: silver.airports\n      partition: monthly"))
                .extracting(SpecProblem::keyPath, SpecProblem::reason)
                .contains(org.assertj.core.groups.Tuple.tuple("layers.gold[2].input",
                        "a rollup sums partitions of its input; silver.airports is a snapshot (partition: none)"));
    }

    @Test
    void aReservedWordIsNoSchemaOrTableName(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        // every table that reads bronze.flights_raw or writes it: a run died with H2's syntax error (exit 70)
        assertThat(problemsOf(dir, "bronze.flights_raw", "bronze.distinct"))
                .extracting(SpecProblem::keyPath, SpecProblem::value, SpecProblem::reason)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("layers.bronze[1].table", "bronze.distinct",
                                "'distinct' is a reserved SQL word on H2 or PostgreSQL; choose another table name"),
                        org.assertj.core.groups.Tuple.tuple("layers.silver[1].input", "bronze.distinct",
                                "'distinct' is a reserved SQL word on H2 or PostgreSQL; choose another table name"));
        assertThat(problemsOf(dir, "gold.route_daily", "gold.full"))
                .extracting(SpecProblem::value).containsOnly("gold.full").isNotEmpty();
        assertThat(problemsOf(dir, "gold.route_daily", "gold.fully")).isEmpty();
    }

    @Test
    void aCheckOfThePartitionsDatesNeedsAPartitionedTable(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        // the bench's one-partition form of flights kept it and failed at its gate: "the partition has no nominal time"
        assertThat(problemsOf(dir, "input: bronze.flights_raw\n      partition: daily", "input: bronze.flights_raw\n      partition: none"))
                .extracting(SpecProblem::keyPath, SpecProblem::value, SpecProblem::reason)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("layers.silver[1].checks", "day_complete",
                                "expect_partition_to_be_fresh judges values against the partition's dates; this table is a"
                                        + " snapshot (partition: none, or an unpartitioned source) and has none"),
                        org.assertj.core.groups.Tuple.tuple("layers.silver[1].checks", "flight_date_in_partition",
                                "expect_column_values_to_be_in_partition judges values against the partition's dates; this table is a"
                                        + " snapshot (partition: none, or an unpartitioned source) and has none"));
    }

    @Test
    void theEngineIsTheWarehouseUnlessTheSpecSaysLakehouse(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        PipelineSpec flights = loader(Map.of()).load(PROJECT_SPEC);
        assertThat(flights.engine()).isEqualTo(new EngineSpec(EngineKind.WAREHOUSE, Path.of("var/lakehouse").toAbsolutePath().toString()));
        assertThat(problemsOf(dir, "partitioning:", "engine: lakehouse\nlakehouse: {location: /data/lake}\npartitioning:")).isEmpty();
        PipelineSpec lake = loader(Map.of("SLUICE_HOME", "/srv/sluice")).load(dir.resolve("flights.yaml"));
        assertThat(lake.engine()).isEqualTo(new EngineSpec(EngineKind.LAKEHOUSE, "/data/lake"));
        assertThat(problemsOf(dir, "partitioning:", "engine: lakehouse\npartitioning:")).isEmpty();
        assertThat(loader(Map.of("SLUICE_HOME", "/srv/sluice")).load(dir.resolve("flights.yaml")).engine().location())
                .isEqualTo("/srv/sluice/lakehouse");
        // a relative path is made absolute when loaded (Iceberg records it in its catalog as given); URIs stay as they are
        assertThat(problemsOf(dir, "partitioning:", "engine: lakehouse\nlakehouse: {location: rel-lake/../lake}\npartitioning:")).isEmpty();
        assertThat(loader(Map.of()).load(dir.resolve("flights.yaml")).engine().location()).isEqualTo(Path.of("lake").toAbsolutePath().toString());
        assertThat(EngineReader.absolute("s3a://bucket/lake")).isEqualTo("s3a://bucket/lake");
        assertThat(EngineReader.absolute("file:/data/lake")).isEqualTo("file:/data/lake");
        assertThat(problemsOf(dir, "partitioning:", "engine: iceberg\nlakehouse: {location: /x}\npartitioning:"))
                .extracting(SpecProblem::keyPath, SpecProblem::value, SpecProblem::reason)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("engine", "iceberg", "not an engine: one of warehouse, lakehouse"),
                        org.assertj.core.groups.Tuple.tuple("lakehouse", "", "a lakehouse section needs engine: lakehouse"));
    }

    @Test
    void aQuarantineRuleReasonLongerThanTheQuarantineHoldsIsASpecProblem(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        String reason = "a required value " + "x".repeat(1000);
        assertThat(problemsOf(dir, "reason: a required value (date, delay, distance, origin, destination) is missing", "reason: " + reason))
                .extracting(SpecProblem::keyPath, SpecProblem::reason)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("layers.silver[1].quarantine[0].reason",
                        "a reason has at most 1000 characters (sluice.quarantine.reason); this one has 1017"));
        assertThat(problemsOf(dir, "reason: a required value (date, delay, distance, origin, destination) is missing", "reason: " + reason)
                .get(0).value()).hasSize(SpecProblem.MAX_VALUE_CHARS).endsWith("… (1017 characters)");
    }

    @Test
    void theHotPathJudgesEventsBySilversRulesAndReconcilesWithTheMart() {
        HotPathSpec hot = loader(Map.of()).load(PROJECT_SPEC).hotPath();
        assertThat(hot.rulesFrom()).isEqualTo(DatasetRef.parse("silver.flights"));
        assertThat(hot.rules()).extracting(QuarantineRule::id).containsExactly(
                "required_value_missing", "delay_out_of_range", "distance_not_positive", "unknown_airport");
        ReconcileSpec r = hot.reconcile();
        assertThat(r).isEqualTo(new ReconcileSpec(DatasetRef.parse("gold.airport_delays_live"), DatasetRef.parse("gold.airport_daily_delays"),
                List.of("origin"), "flights", List.of("avg_delay_min"), 1e-9, Severity.WARN));
        assertThat(r.checkId()).isEqualTo("reconcile_airport_daily_delays");
    }

    @Test
    void rulesFromAndReconcileNameWhatTheyCannotUse(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        assertThat(problemsOf(dir, "rules_from: silver.flights ", "rules_from: silver.airports "))
                .extracting(SpecProblem::keyPath, SpecProblem::value, SpecProblem::reason)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("hot_path.rules_from", "silver.airports",
                        "its rules are written over the Bronze table of source flights, so they can judge its events; silver.airports reads bronze.airports_raw"));
        assertThat(problemsOf(dir, "against: gold.airport_daily_delays", "against: gold.airport_monthly_delays"))
                .extracting(SpecProblem::keyPath, SpecProblem::value, SpecProblem::reason)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("hot_path.reconcile.against", "gold.airport_monthly_delays",
                        "not a Gold table of this pipeline partitioned like it"));
        assertThat(problemsOf(dir, "averages: [avg_delay_min]", "averages: [max_delay_min]"))
                .extracting(SpecProblem::keyPath, SpecProblem::value, SpecProblem::reason)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("hot_path.reconcile.averages[0]", "max_delay_min",
                        "an avg measure of the window and a column of gold.airport_daily_delays"));
        assertThat(problemsOf(dir, "      size: PT1H\n      group_by: [origin]", "      size: PT7H\n      group_by: [origin]"))
                .extracting(SpecProblem::keyPath, SpecProblem::value, SpecProblem::reason)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("hot_path.reconcile.window", "gold.airport_delays_live",
                        "its size PT7H does not divide a daily partition"));
        // a reconciled window whose size is not a duration is one problem, the window's, not a crash of validation
        assertThat(problemsOf(dir, "      size: PT1H\n      group_by: [origin]", "      size: x\n      group_by: [origin]"))
                .extracting(SpecProblem::keyPath).containsExactly("hot_path.windows[0].size");
        // nor is a size below a second (1/2 s: the window's own problem, whole seconds)
        assertThat(problemsOf(dir, "      size: PT1H\n      group_by: [origin]", "      size: PT0.5S\n      group_by: [origin]"))
                .extracting(SpecProblem::keyPath, SpecProblem::reason)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("hot_path.windows[0].size", "windows are whole seconds"));
    }

    @Test
    void aDataTriggerOnThePipelinesOwnDatasetIsRefused(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        assertThat(problemsOf(dir, "schedule:\n  cron: \"0 30 2 * * ?\"", "schedule:\n  after: [gold.airport_daily_delays]"))
                .extracting(SpecProblem::keyPath, SpecProblem::value, SpecProblem::reason)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("schedule.after", "gold.airport_daily_delays",
                        "a table of this pipeline: each run would publish it and start the next run; name another pipeline's dataset"));
        assertThat(problemsOf(dir, "schedule:\n  cron: \"0 30 2 * * ?\"", "schedule:\n  after: [gold.other_pipelines_mart]")).isEmpty();
    }

    @Test
    void theEnvironmentPointsTheWarehouseElsewhere() {
        PipelineSpec spec = loader(Map.of("SLUICE_HOME", "/data/sluice",
                "SLUICE_WAREHOUSE_URL", "jdbc:postgresql://db:5432/wh", "SLUICE_WAREHOUSE_PASSWORD", "s3cret"))
                .load(PROJECT_SPEC);
        assertThat(spec.warehouse().url()).isEqualTo("jdbc:postgresql://db:5432/wh");
        assertThat(spec.warehouse().toString()).doesNotContain("s3cret");
        assertThat(spec.source("airports").orElseThrow().pathTemplate()).isEqualTo("/data/sluice/landing/airports/airports.csv");
    }

    @Test
    void aBadSpecReportsEveryProblemWithFileKeyValueAndReason() {
        Path bad = Path.of("src/test/resources/specs/bad.yaml").toAbsolutePath();
        List<SpecProblem> problems = loader(Map.of()).validate(bad);
        assertThat(problems).extracting(SpecProblem::keyPath, SpecProblem::value).containsExactlyInAnyOrder(
                org.assertj.core.groups.Tuple.tuple("pipeline", "Flights!"),
                org.assertj.core.groups.Tuple.tuple("warehouse.url", "mysql://nope"),
                org.assertj.core.groups.Tuple.tuple("warehouse.password", "****"),
                org.assertj.core.groups.Tuple.tuple("sources[0].format", "xlsx"),
                org.assertj.core.groups.Tuple.tuple("sources[0].path", "landing/flights"),
                org.assertj.core.groups.Tuple.tuple("sources[1].contract", "contracts/missing.yaml"),
                org.assertj.core.groups.Tuple.tuple("columns[1].type", "integer"),
                org.assertj.core.groups.Tuple.tuple("layers.bronze[0].source", "nowhere"),
                org.assertj.core.groups.Tuple.tuple("layers.silver[0].table", "gold.flights"),
                org.assertj.core.groups.Tuple.tuple("layers.silver[0].key[0]", "flight_id"),
                org.assertj.core.groups.Tuple.tuple("layers.silver[0].sql", "SELECT * FROM bronze.flights_raw {part}"),
                org.assertj.core.groups.Tuple.tuple("layers.silver[0].sql", "bronze.flights_raw"),
                org.assertj.core.groups.Tuple.tuple("layers.silver[0].sql", "{part}"),
                org.assertj.core.groups.Tuple.tuple("layers.gold[0].input", "silver.nothing"),
                org.assertj.core.groups.Tuple.tuple("layers.gold[0].colums", "{\"a\":\"long\"}"),
                org.assertj.core.groups.Tuple.tuple("layers.gold[0].columns", "<missing>"),
                org.assertj.core.groups.Tuple.tuple("layers.gold[0].key", "<missing>"));
        assertThat(problems).allSatisfy(p -> {
            assertThat(p.file()).endsWith(".yaml");
            assertThat(p.reason()).isNotBlank();
        });
        assertThat(problems.stream().filter(p -> p.keyPath().equals("columns[1].type")).findFirst().orElseThrow().file())
                .endsWith("contracts/bad-contract.yaml");
        assertThatThrownBy(() -> loader(Map.of()).load(bad)).isInstanceOf(SpecValidationException.class)
                .hasMessageContaining("17 problem(s)");
    }

    @Test
    void aMissingFileIsOneProblem() {
        List<SpecProblem> problems = loader(Map.of()).validate(Path.of("no/such/spec.yaml"));
        assertThat(problems).singleElement().satisfies(p -> {
            assertThat(p.reason()).isEqualTo("no such file");
            assertThat(p.describe()).isEqualTo("no/such/spec.yaml: no such file");
        });
    }

    @Test
    void aSpecCopiedAwayFromItsContractsIsOneProblemPerMissingContract(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path copy = java.nio.file.Files.copy(PROJECT_SPEC, dir.resolve("flights.yaml"));
        // not also the checks on the flights columns, the hot path's source and its rules_from: they follow from it
        assertThat(loader(Map.of()).validate(copy)).extracting(SpecProblem::describe).containsExactly(
                copy + ": sources[0].contract = contracts/flights.v1.yaml: no such contract file (" + dir.resolve("contracts/flights.v1.yaml")
                        + "; a contract path is relative to the spec's folder)",
                copy + ": sources[1].contract = contracts/airports.v1.yaml: no such contract file (" + dir.resolve("contracts/airports.v1.yaml")
                        + "; a contract path is relative to the spec's folder)");
    }

    @Test
    void aDuplicateKeyIsAnErrorWithItsLine(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        String spec = java.nio.file.Files.readString(PROJECT_SPEC)
                .replaceFirst("(?m)^  kind: daily.*$", "  kind: daily\n  kind: daily");
        java.nio.file.Files.createDirectories(dir.resolve("contracts"));
        for (String c : List.of("contracts/flights.v1.yaml", "contracts/airports.v1.yaml")) {
            java.nio.file.Files.copy(PROJECT_SPEC.resolveSibling(c), dir.resolve(c));
        }
        Path file = dir.resolve("flights.yaml");
        java.nio.file.Files.writeString(file, spec);
        assertThat(loader(Map.of()).validate(file)).singleElement().satisfies(p ->
                assertThat(p.reason()).startsWith("not valid YAML at line 13, column").contains("Duplicate field 'kind'"));
    }

    @Test
    void nullableIsTrueOrFalse(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path contract = dir.resolve("c.yaml");
        java.nio.file.Files.writeString(contract, "contract: c\nversion: 1\ncolumns:\n  - {name: a, type: long, nullable: nope}\n");
        List<SpecProblem> problems = new java.util.ArrayList<>();
        assertThat(new ContractLoader(new EnvInterpolator(k -> null)).load(contract, problems)).isEmpty();
        assertThat(problems).extracting(SpecProblem::keyPath, SpecProblem::value)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("columns[0].nullable", "nope"));
    }
}
