package dev.sluice.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.app.serve.CatalogApi;
import dev.sluice.app.serve.LineageServer;
import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.batch.job.RunSummary;
import dev.sluice.lineage.store.LineageRepository;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.Partition;
import dev.sluice.warehouse.Warehouse;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The read-only catalog API of {@code sluice serve} over a real flights load of 2001-01-03 (three
 * exact duplicate rows: the uniqueness check warns): search, a dataset's graph, partitions,
 * quality and freshness, a run with its steps; 404 with a body for unknown names, 405 for writes
 * (only the lineage ingest accepts POST), 401 without the token.
 */
class CatalogApiIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOKEN = "catalog-t0ken";

    @Test
    void aRealLoadIsBrowsableAndTheApiIsReadOnlyAndGuarded() throws Exception {
        PipelineSpec spec = TestHome.flightsSpec(TestHome.freshH2Url(), "sa", "");
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            RunSummary run = new PipelineRunner(w, TestHome.withSampleData()).run(spec, new Partition("2001-01-03"), RunOptions.plain());
            assertThat(run.status().name()).isEqualTo("COMPLETED");
            try (LineageServer server = new LineageServer(new InetSocketAddress("127.0.0.1", 0), new LineageRepository(w.dsl()), TOKEN,
                    new CatalogApi(w.dsl(), spec, Clock.systemUTC()), new dev.sluice.app.serve.WarehouseMetrics(w.dsl(), spec, Clock.systemUTC()))) {
                int port = server.port();
                JsonNode search = ok(port, "/api/v1/datasets?q=airport");
                assertThat(search.get("datasets")).extracting(JsonNode::asText)
                        .contains("gold.airport_daily_delays", "silver.airports", "bronze.airports_raw", "gold.airport_monthly_delays")
                        .doesNotContain("silver.flights");

                JsonNode d = ok(port, "/api/v1/datasets/gold.airport_daily_delays");
                assertThat(d.get("upstream")).extracting(e -> e.get("from").asText() + " -> " + e.get("to").asText())
                        .contains("silver.flights -> gold.airport_daily_delays", "bronze.flights_raw -> silver.flights",
                                "landing/flights -> bronze.flights_raw", "bronze.airports_raw -> silver.airports");
                assertThat(d.get("downstream")).extracting(e -> e.get("to").asText()).contains("gold.airport_monthly_delays");
                assertThat(d.get("schema")).extracting(c -> c.get("column").asText() + ":" + c.get("type").asText())
                        .containsExactly("flight_date:date", "origin:string", "flights:long", "delayed_15:long", "avg_delay_min:double",
                                "max_delay_min:long", "total_distance_mi:long");
                assertThat(d.get("schema").get(4).get("from")).extracting(JsonNode::asText).containsExactly("silver.flights.delay_min (AGGREGATION)");
                assertThat(d.get("partitions")).singleElement().satisfies(p -> {
                    assertThat(p.get("partition").asText()).isEqualTo("2001-01-03");
                    assertThat(p.get("version").asInt()).isEqualTo(1);
                    assertThat(p.get("run_id").asText()).isEqualTo(run.runId().toString());
                });
                assertThat(d.get("quality")).extracting(q -> q.get("check").asText() + " " + q.get("status").asText())
                        .containsExactlyInAnyOrder("flights_counted PASSED", "avg_delay_in_range PASSED", "one_row_per_airport PASSED");
                assertThat(d.get("freshness").get("state").asText()).isIn("OK", "WARN", "BREACH");
                assertThat(d.get("freshness").get("sla").asText()).isEqualTo("PT40H");
                assertThat(d.get("freshness").get("owner").asText()).isEqualTo("flights-data-team");

                JsonNode bronze = ok(port, "/api/v1/datasets/bronze.flights_raw");
                assertThat(bronze.get("quality")).filteredOn(q -> q.get("check").asText().equals("no_exact_duplicates")).singleElement()
                        .satisfies(q -> assertThat(q.get("status").asText()).as("the day has 3 exact duplicates").isEqualTo("WARNED"));

                JsonNode r = ok(port, "/api/v1/runs/" + run.runId());
                assertThat(r.get("status").asText()).isEqualTo("COMPLETED");
                assertThat(r.get("partition").asText()).isEqualTo("2001-01-03");
                assertThat(r.get("steps")).extracting(s -> s.get("output").asText())
                        .contains("bronze.flights_raw", "silver.flights", "gold.airport_daily_delays");
                assertThat(r.get("steps")).filteredOn(s -> s.get("output").asText().equals("bronze.flights_raw")).first()
                        .satisfies(s -> assertThat(s.get("rows").asLong()).isEqualTo(run.bronzeRows()));

                HttpResponse<String> unknown = get(port, "/api/v1/datasets/gold.nope", TOKEN);
                assertThat(unknown.statusCode()).isEqualTo(404);
                assertThat(JSON.readTree(unknown.body()).get("error").asText()).isEqualTo("no dataset 'gold.nope' is recorded here");
                assertThat(JSON.readTree(unknown.body()).get("try").asText()).isEqualTo("/api/v1/datasets?q=nope");
                HttpResponse<String> noRun = get(port, "/api/v1/runs/01aa0000-0000-7000-8000-000000000000", TOKEN);
                assertThat(noRun.statusCode()).isEqualTo(404);
                assertThat(JSON.readTree(noRun.body()).get("error").asText())
                        .isEqualTo("no run '01aa0000-0000-7000-8000-000000000000' is recorded here");
                assertThat(get(port, "/api/v1/backfills/x", TOKEN).statusCode()).isEqualTo(404);
                assertThat(get(port, "/api/v1/nothing", TOKEN).statusCode()).isEqualTo(404);
                // a malformed %-escape (no client library sends one: a raw request) is a 400, not a 500
                try (var socket = new java.net.Socket("127.0.0.1", port)) {
                    socket.getOutputStream().write(("GET /api/v1/datasets?q=%zz HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + TOKEN
                            + "\r\nConnection: close\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                    String answer = new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
                    assertThat(answer).startsWith("HTTP/1.1 400");
                }
                assertThat(ok(port, "/api/v1/datasets/gold%2Eairport_daily_delays").get("name").asText())
                        .as("a %-escaped name is decoded once").isEqualTo("gold.airport_daily_delays");

                for (String method : new String[] {"POST", "PUT", "DELETE"}) {
                    HttpResponse<String> write = send(port, "/api/v1/datasets/gold.airport_daily_delays", method, TOKEN);
                    assertThat(write.statusCode()).as(method).isEqualTo(405);
                    assertThat(JSON.readTree(write.body()).get("error").asText())
                            .isEqualTo("the catalog API is read-only (GET); the only write is POST /api/v1/lineage");
                }
                // the metrics of the same run, from what it recorded: rows per step equal the run summary
                HttpResponse<String> scrape = get(port, "/actuator/prometheus", TOKEN);
                assertThat(scrape.statusCode()).isEqualTo(200);
                String m = scrape.body();
                assertThat(m).contains("sluice_runs{pipeline=\"flights\",status=\"COMPLETED\"} 1.0");
                for (var step : run.steps()) {
                    if (step.gate()) {
                        continue;
                    }
                    String tags = "layer=\"" + step.layer().id() + "\",pipeline=\"flights\",step=\"" + step.step() + "\"}";
                    assertThat(m).contains("sluice_step_rows{kind=\"read\"," + tags + " " + (double) step.rowsRead())
                            .contains("sluice_step_rows{kind=\"written\"," + tags + " " + (double) step.rowsWritten())
                            .contains("sluice_step_rows{kind=\"quarantined\"," + tags + " " + (double) step.quarantined());
                }
                assertThat(m).contains("sluice_step_rows{kind=\"read\",layer=\"bronze\",pipeline=\"flights\",step=\"bronze.flights_raw\"} 16948.0")
                        .contains("sluice_step_rows{kind=\"collapsed\",layer=\"silver\",pipeline=\"flights\",step=\"silver.flights\"} 3.0")
                        .contains("sluice_gate_results{dataset=\"bronze.flights_raw\",family=\"UNIQUENESS\",pipeline=\"flights\",status=\"WARNED\"} 1.0")
                        .contains("sluice_gate_results{dataset=\"gold.airport_daily_delays\",family=\"UNIQUENESS\",pipeline=\"flights\",status=\"PASSED\"} 1.0")
                        .contains("sluice_dataset_freshness_state{dataset=\"gold.airport_daily_delays\",pipeline=\"flights\"}")
                        .contains("sluice_dataset_tslu_seconds{dataset=\"silver.flights\",pipeline=\"flights\"}")
                        .contains("sluice_run_last_duration_seconds{partition_kind=\"daily\",pipeline=\"flights\",status=\"COMPLETED\"}");
                // the run's lineage events, as it recorded them: every event it stored was sent, none dropped or failed
                long events = w.dsl().fetchCount(w.dsl().selectFrom("sluice.lineage_event"));
                assertThat(events).isPositive();
                assertThat(m).contains("sluice_lineage_run_events_total{outcome=\"sent\",pipeline=\"flights\"} " + (double) events)
                        .contains("sluice_lineage_run_events_total{outcome=\"dropped\",pipeline=\"flights\"} 0.0")
                        .contains("sluice_lineage_run_events_total{outcome=\"failed\",pipeline=\"flights\"} 0.0")
                        .as("sluice serve runs no loads: no live lineage queue").doesNotContain("sluice_lineage_queue_depth");
                assertThat(get(port, "/actuator/prometheus", null).statusCode()).isEqualTo(401);

                assertThat(get(port, "/api/v1/datasets?q=airport", null).statusCode()).isEqualTo(401);
                assertThat(get(port, "/api/v1/datasets?q=airport", "wrong").statusCode()).isEqualTo(401);
                assertThat(w.dsl().fetchCount(w.dsl().selectFrom("sluice.published_partition"))).as("nothing was written").isPositive();
            }
        }
    }

    /**
     * The same API over a lakehouse load ({@code pipelines/flights_lake.yaml}, 2001-07-01): the
     * Iceberg tables are browsed by their catalog names, with their graph, column origins,
     * partitions, quality and freshness, and the run's steps, as on the warehouse engine; the
     * partition's version on the page is the control plane's, the run's lineage carries the snapshot.
     */
    @Test
    void aLakehouseLoadIsBrowsableByItsTableNames() throws Exception {
        java.nio.file.Path lake = TestHome.projectRoot().resolve("target/it-lakehouses/api-" + java.util.UUID.randomUUID());
        PipelineSpec spec = TestHome.projectSpec("flights_lake", TestHome.freshH2Url(), "sa", "",
                java.util.Map.of("SLUICE_LAKEHOUSE", lake.toString()));
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            RunSummary run = new PipelineRunner(w, TestHome.withSampleData()).run(spec, new Partition("2001-07-01"), RunOptions.plain());
            assertThat(run.status().name()).isEqualTo("COMPLETED");
            try (LineageServer server = new LineageServer(new InetSocketAddress("127.0.0.1", 0), new LineageRepository(w.dsl()), TOKEN,
                    new CatalogApi(w.dsl(), spec, Clock.systemUTC()), new dev.sluice.app.serve.WarehouseMetrics(w.dsl(), spec, Clock.systemUTC()))) {
                int port = server.port();
                assertThat(ok(port, "/api/v1/datasets?q=lake_").get("datasets")).extracting(JsonNode::asText)
                        .contains("bronze.lake_flights_raw", "silver.lake_flights", "gold.lake_airport_daily_delays")
                        .noneMatch(n -> n.startsWith("/"));
                JsonNode d = ok(port, "/api/v1/datasets/gold.lake_airport_daily_delays");
                assertThat(d.get("upstream")).extracting(e -> e.get("from").asText() + " -> " + e.get("to").asText())
                        .contains("silver.lake_flights -> gold.lake_airport_daily_delays", "bronze.lake_flights_raw -> silver.lake_flights",
                                "landing/flights -> bronze.lake_flights_raw", "bronze.lake_airports_raw -> silver.lake_airports");
                assertThat(d.get("downstream")).extracting(e -> e.get("to").asText()).contains("gold.lake_airport_monthly_delays");
                assertThat(d.get("schema").get(4).get("column").asText()).isEqualTo("avg_delay_min");
                assertThat(d.get("schema").get(4).get("from")).extracting(JsonNode::asText)
                        .containsExactly("silver.lake_flights.delay_min (AGGREGATION)");
                assertThat(d.get("partitions")).singleElement().satisfies(p -> {
                    assertThat(p.get("partition").asText()).isEqualTo("2001-07-01");
                    assertThat(p.get("version").asInt()).isEqualTo(1);
                    assertThat(p.get("run_id").asText()).isEqualTo(run.runId().toString());
                });
                assertThat(d.get("quality")).extracting(q -> q.get("check").asText() + " " + q.get("status").asText())
                        .contains("flights_counted PASSED", "one_row_per_airport PASSED");
                assertThat(d.get("freshness").get("owner").asText()).isEqualTo("flights-data-team");
                JsonNode r = ok(port, "/api/v1/runs/" + run.runId());
                assertThat(r.get("status").asText()).isEqualTo("COMPLETED");
                assertThat(r.get("steps")).filteredOn(s -> s.get("output").asText().equals("bronze.lake_flights_raw")).first()
                        .satisfies(s -> assertThat(s.get("rows").asLong()).isEqualTo(run.bronzeRows()).isEqualTo(6L));
            }
        }
    }

    /**
     * A dataset's view pages its partitions (published or judged) and their quality, newest first,
     * and says when a list is partial: three real days, two per page. A day whose Gold gate failed has
     * quality results but no published version, and is still on its page.
     */
    @Test
    void aDatasetsPartitionsAndQualityArePagedAndAPartialListSaysSo() throws Exception {
        PipelineSpec spec = TestHome.flightsSpec(TestHome.freshH2Url(), "sa", "");
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            PipelineRunner runner = new PipelineRunner(w, TestHome.withSampleData());
            for (String day : List.of("2001-01-01", "2001-01-02", "2001-01-03")) {
                assertThat(runner.run(spec, new Partition(day), RunOptions.plain()).status().name()).isEqualTo("COMPLETED");
            }
            // 2001-01-04 judged but not published: its Gold gate failed (a check no real day meets)
            String strict = java.nio.file.Files.readString(TestHome.projectRoot().resolve("pipelines/flights.yaml"))
                    .replace("column: flights, min_value: 1}", "column: flights, min_value: 100000}");
            java.nio.file.Path specDir = java.nio.file.Files.createTempDirectory("paging");
            java.nio.file.Path strictFile = TestHome.copyFlightsSpec(specDir);
            java.nio.file.Files.writeString(strictFile, strict);
            PipelineSpec strictSpec = new dev.sluice.config.PipelineSpecLoader(TestHome.environment(TestHome.withSampleData(),
                    spec.warehouse().url(), "sa", "").interpolator()).load(strictFile);
            assertThat(runner.run(strictSpec, new Partition("2001-01-04"), RunOptions.plain()).status().name()).isEqualTo("FAILED");
            try (LineageServer server = new LineageServer(new InetSocketAddress("127.0.0.1", 0), new LineageRepository(w.dsl()), TOKEN,
                    new CatalogApi(w.dsl(), spec, Clock.systemUTC()), null)) {
                int port = server.port();
                JsonNode first = ok(port, "/api/v1/datasets/gold.airport_daily_delays?partitions=2");
                assertThat(first.get("page").toString()).isEqualTo(
                        "{\"size\":2,\"before\":null,\"next_before\":\"2001-01-03\",\"partitions_total\":4,\"partial\":true}");
                assertThat(first.get("partitions")).extracting(p -> p.get("partition").asText()).containsExactly("2001-01-03");
                assertThat(first.get("quality")).extracting(q -> q.get("partition").asText() + " " + q.get("check").asText() + " "
                        + q.get("status").asText()).containsExactly(
                                "2001-01-04 flights_counted FAILED", "2001-01-04 avg_delay_in_range PASSED", "2001-01-04 one_row_per_airport PASSED",
                                "2001-01-03 flights_counted PASSED", "2001-01-03 avg_delay_in_range PASSED", "2001-01-03 one_row_per_airport PASSED");
                JsonNode second = ok(port, "/api/v1/datasets/gold.airport_daily_delays?partitions=2&before=2001-01-03");
                assertThat(second.get("page").toString()).isEqualTo(
                        "{\"size\":2,\"before\":\"2001-01-03\",\"next_before\":null,\"partitions_total\":4,\"partial\":true}");
                assertThat(second.get("partitions")).extracting(p -> p.get("partition").asText()).containsExactly("2001-01-02", "2001-01-01");
                assertThat(second.get("quality")).hasSize(6);
                JsonNode all = ok(port, "/api/v1/datasets/gold.airport_daily_delays");
                assertThat(all.get("page").toString()).isEqualTo(
                        "{\"size\":60,\"before\":null,\"next_before\":null,\"partitions_total\":4,\"partial\":false}");
                assertThat(all.get("quality")).hasSize(12);
                HttpResponse<String> tooMany = get(port, "/api/v1/datasets/gold.airport_daily_delays?partitions=401", TOKEN);
                assertThat(tooMany.statusCode()).isEqualTo(400);
                assertThat(JSON.readTree(tooMany.body()).get("error").asText())
                        .isEqualTo("malformed request: partitions must be within 1 and 400, was 401");
            }
        }
    }

    // ---- issue 28 items 3 and 4: the graph to any depth, a run's timeline, checks and warnings, a backfill's timeline ----

    /**
     * {@code /api/v1/graph/{name}} over a real load: by default 3 levels each way, where
     * {@code bronze.airports_raw} is marked expandable upstream; expanded to any depth it reaches
     * {@code landing/airports/airports.csv} four levels up, and its nodes and edges are the store's walk.
     * A run's answer has every step, the reconcile step too, as timeline bars ordered by start whose
     * lengths are the recorded times; a backfill's has a bar for the partition it ran and none for the
     * one it skipped.
     */
    @Test
    void theGraphExpandsToAnyDepthAndRunsAndBackfillsHaveTimelines() throws Exception {
        PipelineSpec spec = TestHome.flightsSpec(TestHome.freshH2Url(), "sa", "");
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            PipelineRunner runner = new PipelineRunner(w, TestHome.withSampleData());
            RunSummary run = runner.run(spec, new Partition("2001-01-03"), RunOptions.plain());
            assertThat(run.status().name()).isEqualTo("COMPLETED");
            var backfill = new dev.sluice.batch.backfill.Backfill(runner, Clock.systemUTC());
            var report = backfill.run(spec, backfill.plan(spec, java.time.LocalDate.parse("2001-01-02"), java.time.LocalDate.parse("2001-01-03"),
                    false), new dev.sluice.batch.backfill.Backfill.Options(1, 64, "api-test"), dev.sluice.batch.backfill.Backfill.Progress.NONE);
            assertThat(report.status().name()).isEqualTo("COMPLETED");
            LineageRepository store = new LineageRepository(w.dsl());
            try (LineageServer server = new LineageServer(new InetSocketAddress("127.0.0.1", 0), store, TOKEN,
                    new CatalogApi(w.dsl(), spec, Clock.systemUTC()), null)) {
                int port = server.port();
                String mart = "gold.airport_daily_delays";
                JsonNode near = ok(port, "/api/v1/graph/" + mart);
                assertThat(near.get("upstream").asInt()).isEqualTo(3);
                assertThat(edges(near)).containsExactlyInAnyOrderElementsOf(edges(store.upstream(mart, 3), store.downstream(mart, 3)));
                assertThat(names(near)).doesNotContain("landing/airports/airports.csv");
                assertThat(node(near, "bronze.airports_raw").get("level").asInt()).isEqualTo(-3);
                assertThat(node(near, "bronze.airports_raw").get("expandable").get("upstream").asBoolean()).isTrue();
                assertThat(node(near, "silver.flights").get("expandable").get("upstream").asBoolean()).isFalse();
                assertThat(node(near, "gold.airport_monthly_delays").get("level").asInt()).isEqualTo(1);

                JsonNode deep = ok(port, "/api/v1/graph/" + mart + "?upstream=100&downstream=100");
                assertThat(node(deep, "landing/airports/airports.csv").get("level").asInt()).isEqualTo(-4);
                java.util.Set<String> walked = new java.util.TreeSet<>(List.of(mart));
                store.upstream(mart, 100).forEach(e -> walked.addAll(List.of(e.from(), e.to())));
                store.downstream(mart, 100).forEach(e -> walked.addAll(List.of(e.from(), e.to())));
                assertThat(new java.util.TreeSet<>(names(deep))).isEqualTo(walked);
                assertThat(edges(deep)).containsExactlyInAnyOrderElementsOf(edges(store.upstream(mart, 100), store.downstream(mart, 100)));
                assertThat(deep.get("nodes")).allSatisfy(n -> assertThat(n.get("expandable").toString())
                        .isEqualTo("{\"upstream\":false,\"downstream\":false}"));
                JsonNode four = ok(port, "/api/v1/graph/" + mart + "?upstream=4&downstream=0");
                assertThat(names(four)).contains("landing/airports/airports.csv").doesNotContain("gold.airport_monthly_delays");
                assertThat(node(four, mart).get("expandable").toString()).isEqualTo("{\"upstream\":false,\"downstream\":true}");
                JsonNode none = ok(port, "/api/v1/graph/" + mart + "?upstream=0&downstream=0");
                assertThat(names(none)).containsExactly(mart);
                assertThat(none.get("edges")).isEmpty();
                for (String[] bad : new String[][] {{"upstream=abc", "upstream must be a whole number within 0 and 100, was abc"},
                        {"downstream=101", "downstream must be a whole number within 0 and 100, was 101"},
                        {"upstream=-1", "upstream must be a whole number within 0 and 100, was -1"}}) {
                    HttpResponse<String> r = get(port, "/api/v1/graph/" + mart + "?" + bad[0], TOKEN);
                    assertThat(r.statusCode()).as(bad[0]).isEqualTo(400);
                    assertThat(JSON.readTree(r.body()).get("error").asText()).isEqualTo("malformed request: " + bad[1]);
                }
                HttpResponse<String> unknown = get(port, "/api/v1/graph/gold.nope", TOKEN);
                assertThat(unknown.statusCode()).isEqualTo(404);
                assertThat(JSON.readTree(unknown.body()).get("error").asText()).isEqualTo("no dataset 'gold.nope' is recorded here");

                JsonNode r = ok(port, "/api/v1/runs/" + run.runId());
                JsonNode bars = r.get("timeline").get("bars");
                List<String> stepNames = new java.util.ArrayList<>();
                bars.forEach(b -> stepNames.add(b.get("name").asText()));
                assertThat(stepNames).containsAll(run.steps().stream().map(s -> s.step()).toList())
                        .contains("reconcile.gold.airport_delays_live").hasSize(run.steps().size() + 1);
                long previous = -1;
                long span = 0;
                for (JsonNode b : bars) {
                    long offset = b.get("offset_ms").asLong();
                    assertThat(offset).as("bars ordered by start").isGreaterThanOrEqualTo(previous);
                    previous = offset;
                    java.time.Instant start = java.time.Instant.parse(b.get("started_at").asText());
                    java.time.Instant end = java.time.Instant.parse(b.get("ended_at").asText());
                    assertThat(b.get("elapsed_ms").asLong()).isEqualTo(java.time.Duration.between(start, end).toMillis());
                    assertThat(offset).isEqualTo(java.time.Duration.between(java.time.Instant.parse(r.get("timeline").get("started_at").asText()),
                            start).toMillis());
                    assertThat(b.get("status").asText()).isEqualTo("COMPLETED");
                    span = Math.max(span, offset + b.get("elapsed_ms").asLong());
                }
                assertThat(r.get("timeline").get("span_ms").asLong()).isEqualTo(span);
                assertThat(stepNames.get(stepNames.size() - 1)).as("reconcile runs last").isEqualTo("reconcile.gold.airport_delays_live");
                assertThat(r.get("warnings")).extracting(JsonNode::asText).containsExactlyElementsOf(run.warnings());
                assertThat(r.get("checks")).extracting(c -> c.get("dataset").asText() + " " + c.get("check").asText() + " " + c.get("status").asText())
                        .contains("bronze.flights_raw no_exact_duplicates WARNED", "gold.airport_daily_delays one_row_per_airport PASSED")
                        .anyMatch(c -> c.contains("reconcile_"));

                JsonNode b = ok(port, "/api/v1/backfills/" + report.backfillId());
                var ran = report.outcomes().stream().filter(o -> o.partition().key().equals("2001-01-02")).findFirst().orElseThrow();
                assertThat(b.get("timeline").get("bars")).singleElement().satisfies(bar -> {
                    assertThat(bar.get("name").asText()).isEqualTo("2001-01-02");
                    assertThat(bar.get("run_id").asText()).isEqualTo(ran.summary().runId().toString());
                    assertThat(bar.get("offset_ms").asLong()).isZero();
                    assertThat(bar.get("elapsed_ms").asLong()).isEqualTo(b.get("timeline").get("span_ms").asLong()).isPositive();
                });
                assertThat(b.get("process_gone").asBoolean()).as("a completed backfill").isFalse();
                // the same backfill as a process killed between its two partitions leaves it: RUNNING, no attempt STARTED
                Process exited = new ProcessBuilder("true").start();
                assertThat(exited.waitFor()).isZero();
                w.dsl().update(dev.sluice.batch.backfill.BackfillRepository.BACKFILLS)
                        .set(org.jooq.impl.DSL.field(org.jooq.impl.DSL.name("status"), String.class), "RUNNING")
                        .set(org.jooq.impl.DSL.field(org.jooq.impl.DSL.name("pid"), Long.class), exited.pid()).execute();
                JsonNode killed = ok(port, "/api/v1/backfills/" + report.backfillId());
                assertThat(List.of(killed.get("status").asText(), killed.get("process_gone").asBoolean())).containsExactly("RUNNING", true);
            }
        }
    }

    private static List<String> names(JsonNode graph) {
        List<String> out = new java.util.ArrayList<>();
        graph.get("nodes").forEach(n -> out.add(n.get("name").asText()));
        return out;
    }

    private static JsonNode node(JsonNode graph, String name) {
        for (JsonNode n : graph.get("nodes")) {
            if (n.get("name").asText().equals(name)) {
                return n;
            }
        }
        throw new AssertionError(name + " is not in " + names(graph));
    }

    private static List<String> edges(JsonNode graph) {
        List<String> out = new java.util.ArrayList<>();
        graph.get("edges").forEach(e -> out.add(e.get("from").asText() + " -> " + e.get("to").asText() + " by " + e.get("job").asText()));
        return out;
    }

    @SafeVarargs
    private static List<String> edges(List<LineageRepository.Edge>... walks) {
        java.util.Set<String> out = new java.util.LinkedHashSet<>();
        for (var walk : walks) {
            walk.forEach(e -> out.add(e.from() + " -> " + e.to() + " by " + e.job()));
        }
        return List.copyOf(out);
    }

    // ---- end of issue 28 items 3 and 4 ----

    private static JsonNode ok(int port, String path) throws Exception {
        HttpResponse<String> r = get(port, path, TOKEN);
        assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    private static HttpResponse<String> get(int port, String path, String token) throws Exception {
        return send(port, path, "GET", token);
    }

    private static HttpResponse<String> send(int port, String path, String method, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .method(method, method.equals("GET") ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString("{}"));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
