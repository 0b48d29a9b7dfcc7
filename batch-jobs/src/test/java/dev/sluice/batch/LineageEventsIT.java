package dev.sluice.batch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.batch.job.RunSummary;
import dev.sluice.batch.testkit.OpenLineageSchemas;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.warehouse.Warehouse;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.core.Partition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OpenLineage events of real flights runs (file transport): START and exactly one terminal
 * event per job run and per step run, every step's parent the job run, stable dataset names with
 * the partition in a facet, and every event valid against the official core schema and each
 * facet's own schema (../shared/fixtures/openlineage-spec, format assertions on). A run failed by
 * an error gate check emits FAIL with an error message and no COMPLETE.
 */
class LineageEventsIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private List<JsonNode> run(Path specFile, String partition, Path events) throws Exception {
        return run(specFile, partition, events, w -> { });
    }

    private List<JsonNode> run(Path specFile, String partition, Path events, java.util.function.Consumer<Warehouse> then) throws Exception {
        Map<String, String> env = new HashMap<>(TestHome.environment(TestHome.withSampleData(), TestHome.freshH2Url(), "sa", "").variables());
        env.put("SLUICE_LINEAGE_TRANSPORT", "file");
        PipelineSpec spec = new PipelineSpecLoader(new dev.sluice.config.SluiceEnvironment(env).interpolator()).load(specFile);
        spec = withLineageFile(spec, events);
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            RunSummary s = new PipelineRunner(w, TestHome.withSampleData()).run(spec, Partition.parseDaily(partition), RunOptions.plain());
            assertThat(s.status().name()).isIn("COMPLETED", "FAILED");
            then.accept(w);
        }
        List<JsonNode> out = new ArrayList<>();
        for (String line : Files.readAllLines(events)) {
            out.add(JSON.readTree(line));
        }
        return out;
    }

    private static PipelineSpec withLineageFile(PipelineSpec s, Path events) {
        var l = s.lineage();
        return new PipelineSpec(s.file(), s.name(), s.description(), s.warehouse(), s.batchRows(), s.maxLineBytes(), s.keepVersions(),
                s.sources(), s.tables(), s.sparkMaster(), new dev.sluice.config.LineageSpec(l.transport(), events.toString(), l.url(),
                        l.apiKey(), l.namespace(), l.queue()), s.piiKeys(), s.partitionKind(), s.schedule(), s.tier(), s.datasets(), s.alertWebhook(), s.backfillWindow(), s.execution(), s.hotPath(), s.requirements(), s.hash(), s.engine());
    }

    @Test
    void aFlightsRunEmitsPairedValidEventsWithParentLinks() throws Exception {
        Path events = dir.resolve("events.ndjson");
        List<JsonNode> all = run(TestHome.projectRoot().resolve("pipelines/flights.yaml"), "2001-07-01", events);
        Map<String, List<String>> byRun = new LinkedHashMap<>();
        Map<String, String> jobOf = new HashMap<>();
        Map<String, String> parentOf = new HashMap<>();
        for (JsonNode e : all) {
            String id = e.path("run").path("runId").asText();
            byRun.computeIfAbsent(id, k -> new ArrayList<>()).add(e.path("eventType").asText());
            jobOf.put(id, e.path("job").path("name").asText());
            JsonNode parent = e.path("run").path("facets").path("parent").path("run").path("runId");
            if (!parent.isMissingNode()) {
                parentOf.put(id, parent.asText());
            }
        }
        assertThat(jobOf.values()).containsExactlyInAnyOrder("flights", "flights.bronze.airports_raw", "flights.bronze.flights_raw",
                "flights.gate.bronze.flights_raw", "flights.silver.airports", "flights.silver.flights", "flights.gate.silver.flights",
                "flights.gold.airport_daily_delays", "flights.gate.gold.airport_daily_delays", "flights.gold.route_daily",
                "flights.gold.airport_monthly_delays");
        assertThat(byRun.values()).allSatisfy(types -> assertThat(types).containsExactly("START", "COMPLETE"));
        String jobRun = jobOf.entrySet().stream().filter(x -> x.getValue().equals("flights")).findFirst().orElseThrow().getKey();
        assertThat(parentOf).hasSize(10).allSatisfy((step, parent) -> assertThat(parent).isEqualTo(jobRun));
        assertThat(all.get(0).path("job").path("name").asText()).isEqualTo("flights");
        assertThat(all.get(all.size() - 1).path("eventType").asText()).isEqualTo("COMPLETE");
        assertThat(all.get(all.size() - 1).path("job").path("name").asText()).isEqualTo("flights");

        JsonNode silver = all.stream().filter(e -> e.path("job").path("name").asText().equals("flights.silver.flights")
                && e.path("eventType").asText().equals("COMPLETE")).findFirst().orElseThrow();
        JsonNode out = silver.path("outputs").get(0);
        assertThat(out.path("name").asText()).isEqualTo("silver.flights");
        assertThat(out.path("facets").path("version").path("datasetVersion").asText()).isEqualTo("1");
        assertThat(out.path("outputFacets").path("outputStatistics").path("rowCount").asLong()).isEqualTo(6);
        assertThat(out.path("facets").path("partitioning").path("partitions").get(0).path("identifier").get(0).path("value").asText())
                .isEqualTo("2001-07-01");
        assertThat(silver.path("inputs").get(0).path("name").asText()).isEqualTo("bronze.flights_raw");
        assertThat(silver.path("job").path("facets").path("sql").path("query").asText()).contains("COUNT(*) AS dup_count");
        assertThat(silver.path("run").path("facets").path("nominalTime").path("nominalStartTime").asText()).isEqualTo("2001-07-01T00:00:00Z");
        JsonNode gate = all.stream().filter(e -> e.path("job").path("name").asText().equals("flights.gate.silver.flights")
                && e.path("eventType").asText().equals("COMPLETE")).findFirst().orElseThrow();
        JsonNode judged = gate.path("inputs").get(0).path("inputFacets");
        assertThat(judged.path("dataQualityMetrics").path("rowCount").asLong()).isEqualTo(6);
        // null counts are those of the completeness checks: the source gate judges five columns, the transform gate none
        JsonNode sourceGate = all.stream().filter(e -> e.path("job").path("name").asText().equals("flights.gate.bronze.flights_raw")
                && e.path("eventType").asText().equals("COMPLETE")).findFirst().orElseThrow();
        JsonNode nulls = sourceGate.path("inputs").get(0).path("inputFacets").path("dataQualityMetrics").path("columnMetrics");
        List<String> counted = new ArrayList<>();
        nulls.fields().forEachRemaining(f -> counted.add(f.getKey() + "=" + f.getValue().path("nullCount").asLong()));
        assertThat(counted).containsExactlyInAnyOrder("date=0", "delay=0", "distance=0", "origin=0", "destination=0");
        List<String> assertions = new ArrayList<>();
        judged.path("dataQualityAssertions").path("assertions")
                .forEach(a -> assertions.add(a.path("assertion").asText() + "=" + a.path("success").asBoolean()));
        assertThat(assertions).containsExactly("delay_plausible=true", "day_complete=false", "dup_count_positive=true",
                "flight_date_in_partition=true", "quarantine_delay_out_of_range=true");
        JsonNode bronze = all.stream().filter(e -> e.path("job").path("name").asText().equals("flights.bronze.flights_raw"))
                .findFirst().orElseThrow();
        assertThat(bronze.path("inputs").get(0).path("name").asText()).isEqualTo("landing/flights");

        OpenLineageSchemas schemas = OpenLineageSchemas.find().orElse(null);
        Assumptions.assumeTrue(schemas != null, "../shared/fixtures/openlineage-spec is absent: schema validation skipped");
        for (JsonNode e : all) {
            assertThat(schemas.violations(e)).as("%s %s", e.path("eventType").asText(), e.path("job").path("name").asText()).isEmpty();
        }
        // the validator is not vacuous: a run id that is no UUID, a time without offset, a facet of the wrong shape
        com.fasterxml.jackson.databind.node.ObjectNode broken = silver.deepCopy();
        ((com.fasterxml.jackson.databind.node.ObjectNode) broken.path("run")).put("runId", "run-42");
        broken.put("eventTime", "2001-07-01T00:00:00");
        ((com.fasterxml.jackson.databind.node.ObjectNode) broken.path("run").path("facets").path("nominalTime")).put("nominalStartTime", "yesterday");
        ((com.fasterxml.jackson.databind.node.ObjectNode) broken.path("run").path("facets").path("sluice_run")).put("specHash", "x");
        List<String> violations = schemas.violations(broken);
        assertThat(violations).anySatisfy(v -> assertThat(v).startsWith("$.run.runId"))
                .anySatisfy(v -> assertThat(v).startsWith("$.eventTime"))
                .anySatisfy(v -> assertThat(v).startsWith("$.run.facets.nominalTime.nominalStartTime"))
                .anySatisfy(v -> assertThat(v).startsWith("$.run.facets.sluice_run.specHash"));
    }

    @Test
    void theStoreAnswersUpstreamDownstreamAndRuns() throws Exception {
        run(TestHome.projectRoot().resolve("pipelines/flights.yaml"), "2001-07-01", dir.resolve("store.ndjson"), w -> {
            var repo = new dev.sluice.lineage.store.LineageRepository(w.dsl());
            assertThat(repo.upstream("gold.airport_daily_delays", 10)).extracting(e -> e.from() + " -> " + e.to()).containsExactlyInAnyOrder(
                    "silver.flights -> gold.airport_daily_delays",
                    "bronze.flights_raw -> silver.flights", "silver.airports -> silver.flights",
                    "landing/flights -> bronze.flights_raw", "bronze.airports_raw -> silver.airports",
                    "landing/airports/airports.csv -> bronze.airports_raw");
            assertThat(repo.upstream("gold.airport_daily_delays", 1)).hasSize(1);
            assertThat(repo.downstream("landing/airports/airports.csv", 10)).extracting(e -> e.to()).containsExactlyInAnyOrder(
                    "bronze.airports_raw", "silver.airports", "silver.flights", "gold.airport_daily_delays", "gold.route_daily",
                    "gold.airport_monthly_delays");
            var runs = repo.runs("silver.flights", "2001-07-01");
            assertThat(runs).hasSize(1);
            assertThat(runs.get(0).get("output_rows", Long.class)).isEqualTo(6L);
            assertThat(runs.get(0).get("output_version", String.class)).isEqualTo("1");
            assertThat(w.dsl().fetchCount(w.dsl().selectFrom("sluice.lineage_event"))).isEqualTo(22);
            assertThat(repo.columnOrigins("gold.airport_daily_delays", "avg_delay_min"))
                    .extracting(e -> e.from() + " -> " + e.to() + " " + e.subtype()).containsExactly(
                            "silver.flights.delay_min -> gold.airport_daily_delays.avg_delay_min AGGREGATION",
                            "bronze.flights_raw.delay -> silver.flights.delay_min IDENTITY",
                            "landing/flights.delay -> bronze.flights_raw.delay IDENTITY");
            assertThat(repo.impact("bronze.flights_raw", "2001-07-01")).extracting(i -> i.dataset() + "@" + i.partition() + " " + i.level())
                    .containsExactly("silver.flights@2001-07-01 1", "gold.airport_daily_delays@2001-07-01 2", "gold.route_daily@2001-07-01 2",
                            "gold.airport_monthly_delays@2001-07 3");
            assertThat(repo.impact("silver.airports", "none")).extracting(i -> i.dataset() + "@" + i.partition())
                    .containsExactly("silver.flights@2001-07-01", "gold.airport_daily_delays@2001-07-01", "gold.route_daily@2001-07-01",
                            "gold.airport_monthly_delays@2001-07");
            assertThat(repo.columnOrigins("silver.flights", "origin_state")).extracting(e -> e.from() + " " + e.subtype())
                    .contains("silver.airports.state IDENTITY");
        });
    }

    @Test
    void aRestartIsANewOpenLineageRunOfTheSameAttempt() throws Exception {
        Path specFile = TestHome.copyFlightsSpec(dir.resolve("restart"));
        String good = Files.readString(specFile);
        Files.writeString(specFile, good.replace("MAX(delay_min) AS max_delay_min", "MAX(delay_minutes) AS max_delay_min"));
        Path events = dir.resolve("restart.ndjson");
        Map<String, String> env = new HashMap<>(TestHome.environment(TestHome.withSampleData(), TestHome.freshH2Url(), "sa", "").variables());
        var loader = new PipelineSpecLoader(new dev.sluice.config.SluiceEnvironment(env).interpolator());
        try (Warehouse w = Warehouse.open(loader.load(specFile).warehouse())) {
            PipelineRunner runner = new PipelineRunner(w, TestHome.withSampleData());
            assertThat(runner.run(withLineageFile(loader.load(specFile), events), Partition.parseDaily("2001-07-01"), RunOptions.plain())
                    .status().name()).isEqualTo("FAILED");
            Files.writeString(specFile, good);
            assertThat(runner.run(withLineageFile(loader.load(specFile), events), Partition.parseDaily("2001-07-01"), RunOptions.plain())
                    .status().name()).isEqualTo("COMPLETED");
        }
        Map<String, List<String>> byRun = new LinkedHashMap<>();
        List<String> jobRuns = new ArrayList<>();
        Map<String, String> attempts = new HashMap<>();
        for (String line : Files.readAllLines(events)) {
            JsonNode e = JSON.readTree(line);
            String id = e.path("run").path("runId").asText();
            byRun.computeIfAbsent(id, k -> new ArrayList<>()).add(e.path("eventType").asText());
            if (e.path("job").path("name").asText().equals("flights") && !jobRuns.contains(id)) {
                jobRuns.add(id);
            }
            attempts.put(id, e.path("run").path("facets").path("sluice_run").path("attemptRunId").asText());
        }
        assertThat(byRun.values()).allSatisfy(types -> assertThat(types).hasSize(2).startsWith("START"));
        assertThat(jobRuns).hasSize(2);
        assertThat(byRun.get(jobRuns.get(0))).containsExactly("START", "FAIL");
        assertThat(byRun.get(jobRuns.get(1))).containsExactly("START", "COMPLETE");
        assertThat(attempts.get(jobRuns.get(1))).isEqualTo(jobRuns.get(0)).isEqualTo(attempts.get(jobRuns.get(0)));
    }

    @Test
    void aRunFailedByAGateEmitsFailWithItsErrorAndNoComplete() throws Exception {
        Path spec = TestHome.copyFlightsSpec(dir.resolve("spec"));
        String good = Files.readString(spec);
        Files.writeString(spec, good.replace("column: avg_delay_min, min_value: -120, max_value: 2880}",
                "column: avg_delay_min, min_value: -120, max_value: 5}"));
        List<JsonNode> all = run(spec, "2001-02-22", dir.resolve("fail.ndjson"));
        List<String> job = all.stream().filter(e -> e.path("job").path("name").asText().equals("flights"))
                .map(e -> e.path("eventType").asText()).toList();
        assertThat(job).containsExactly("START", "FAIL");
        JsonNode gateFail = all.stream().filter(e -> e.path("job").path("name").asText().equals("flights.gate.gold.airport_daily_delays")
                && e.path("eventType").asText().equals("FAIL")).findFirst().orElseThrow();
        assertThat(gateFail.path("run").path("facets").path("errorMessage").path("message").asText())
                .contains("check avg_delay_in_range (expect_column_values_to_be_between) failed");
        assertThat(gateFail.path("run").path("facets").path("errorMessage").path("programmingLanguage").asText()).isEqualTo("JAVA");
        assertThat(all).noneMatch(e -> e.path("job").path("name").asText().startsWith("flights.gate.gold")
                && e.path("eventType").asText().equals("COMPLETE"));
        OpenLineageSchemas schemas = OpenLineageSchemas.find().orElse(null);
        Assumptions.assumeTrue(schemas != null, "../shared/fixtures/openlineage-spec is absent: schema validation skipped");
        for (JsonNode e : all) {
            assertThat(schemas.violations(e)).as("%s %s", e.path("eventType").asText(), e.path("job").path("name").asText()).isEmpty();
        }
    }
}
