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
                // a page key that is no partition, a full-width digit, a name longer than any: each a 400 saying why
                for (String[] bad : new String[][] {
                        {"gold.airport_daily_delays?before=garbage", "before must be a partition key: partition 'garbage' is not a day"},
                        {"gold.airport_daily_delays?partitions=%EF%BC%95", "partitions must be a whole number within 1 and 400, was \uFF15"},
                        {"x".repeat(70_000), "a name or id is at most 1024 characters, was 70000"}}) {
                    HttpResponse<String> r = get(port, "/api/v1/datasets/" + bad[0], TOKEN);
                    assertThat(r.statusCode()).as(bad[0].substring(0, Math.min(60, bad[0].length()))).isEqualTo(400);
                    assertThat(JSON.readTree(r.body()).get("error").asText()).startsWith("malformed request: " + bad[1]);
                }
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
                w.dsl().update(dev.sluice.control.backfill.BackfillRepository.BACKFILLS)
                        .set(org.jooq.impl.DSL.field(org.jooq.impl.DSL.name("status"), String.class), "RUNNING")
                        .set(org.jooq.impl.DSL.field(org.jooq.impl.DSL.name("pid"), Long.class), exited.pid()).execute();
                JsonNode killed = ok(port, "/api/v1/backfills/" + report.backfillId());
                assertThat(List.of(killed.get("status").asText(), killed.get("process_gone").asBoolean())).containsExactly("RUNNING", true);
            }
        }
    }

    /**
     * {@code GET /api/v1/status} over real state: a completed day (2001-01-03: three exact duplicates,
     * the Bronze uniqueness check WARNED), a day whose Gold gate failed (2001-02-22 under a spec whose
     * avg_delay_in_range cannot hold), an attempt stopped by a cancel, a backfill whose process is gone
     * (its attempt left STARTED: KILLED) and one still running in this process, and two hot-path
     * partitions' stored positions. The clock stands 38 h after the newest publication: the daily
     * datasets are late (WARN: past 1.5 × 24 h, within the 40 h SLA). Every value is asserted.
     */
    @Test
    void theStatusOverviewSaysWhatIsWrong() throws Exception {
        PipelineSpec spec = TestHome.flightsSpec(TestHome.freshH2Url(), "sa", "");
        java.nio.file.Path specDir = java.nio.file.Files.createTempDirectory("status");
        java.nio.file.Path strictFile = TestHome.copyFlightsSpec(specDir);
        java.nio.file.Files.writeString(strictFile, java.nio.file.Files.readString(strictFile).replace(
                "column: avg_delay_min, min_value: -120, max_value: 2880}", "column: avg_delay_min, min_value: -120, max_value: 5}"));
        PipelineSpec strict = new dev.sluice.config.PipelineSpecLoader(TestHome.environment(TestHome.withSampleData(),
                spec.warehouse().url(), "sa", "").interpolator()).load(strictFile);
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            PipelineRunner runner = new PipelineRunner(w, TestHome.withSampleData());
            RunSummary good = runner.run(spec, new Partition("2001-01-03"), RunOptions.plain());
            assertThat(good.status().name()).isEqualTo("COMPLETED");
            RunSummary failed = runner.run(strict, new Partition("2001-02-22"), RunOptions.plain());
            assertThat(failed.status().name()).isEqualTo("FAILED");
            var runs = new dev.sluice.control.run.RunRepository(w.dsl());
            // an attempt stopped by a cancel
            dev.sluice.core.RunId stopped = dev.sluice.core.RunId.newId();
            runs.start(stopped, "flights", new Partition("2001-01-08"), 0, "h", "ops", null);
            runs.finish(stopped, dev.sluice.control.run.RunStatus.STOPPED, dev.sluice.control.run.StopCause.CANCEL, 0,
                    "cancelled by ops", "{}", new dev.sluice.control.run.LineageCounts(0, 0, 0));
            // a backfill whose process was killed while it ran 2001-01-05: it and its attempt are left RUNNING/STARTED, their pid gone
            var backfills = new dev.sluice.control.backfill.BackfillRepository(w.dsl());
            dev.sluice.core.RunId killedBackfill = dev.sluice.core.RunId.newId();
            backfills.start(killedBackfill, "flights", java.time.LocalDate.parse("2001-01-05"), java.time.LocalDate.parse("2001-01-06"), false,
                    "h", "ops", null);
            dev.sluice.core.RunId killed = dev.sluice.core.RunId.newId();
            runs.start(killed, "flights", new Partition("2001-01-05"), 0, "h", "ops", killedBackfill.toString());
            backfills.partition(killedBackfill, new Partition("2001-01-05"), dev.sluice.control.backfill.Action.RUN,
                    dev.sluice.control.backfill.PartitionStatus.RUNNING, killed, null);
            Process gone = new ProcessBuilder("true").start();
            assertThat(gone.waitFor()).isZero();
            w.dsl().update(dev.sluice.control.run.RunRepository.TABLE).set(org.jooq.impl.DSL.field(org.jooq.impl.DSL.name("pid"), Long.class), gone.pid())
                    .where(org.jooq.impl.DSL.field(org.jooq.impl.DSL.name("run_id")).eq(killed.toString())).execute();
            w.dsl().update(dev.sluice.control.backfill.BackfillRepository.BACKFILLS).set(org.jooq.impl.DSL.field(org.jooq.impl.DSL.name("pid"), Long.class),
                    gone.pid()).where(org.jooq.impl.DSL.field(org.jooq.impl.DSL.name("backfill_id")).eq(killedBackfill.toString())).execute();
            assertThat(backfills.processGone(killedBackfill)).as("the repository's own judgement").isTrue();
            // a backfill running in this process (2001-01-07)
            dev.sluice.core.RunId liveBackfill = dev.sluice.core.RunId.newId();
            backfills.start(liveBackfill, "flights", java.time.LocalDate.parse("2001-01-07"), java.time.LocalDate.parse("2001-01-07"), false,
                    "h", "ops", null);
            dev.sluice.core.RunId running = dev.sluice.core.RunId.newId();
            runs.start(running, "flights", new Partition("2001-01-07"), 0, "h", "ops", liveBackfill.toString());
            backfills.partition(liveBackfill, new Partition("2001-01-07"), dev.sluice.control.backfill.Action.RUN,
                    dev.sluice.control.backfill.PartitionStatus.RUNNING, running, null);
            // the hot path's stored positions: partition 1's consumer saw 12 records behind at its last store
            java.time.OffsetDateTime stored = java.time.OffsetDateTime.now(java.time.ZoneOffset.UTC).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
            for (int[] p : new int[][] {{0, 8431, 0}, {1, 8420, 12}}) {
                w.dsl().insertInto(dev.sluice.warehouse.meta.HotOffsetTable.TABLE).set(org.jooq.impl.DSL.field(org.jooq.impl.DSL.name("group_id")), "flights-hot")
                        .set(org.jooq.impl.DSL.field(org.jooq.impl.DSL.name("topic")), "flights.events")
                        .set(org.jooq.impl.DSL.field(org.jooq.impl.DSL.name("kafka_partition")), p[0])
                        .set(org.jooq.impl.DSL.field(org.jooq.impl.DSL.name("next_offset")), (long) p[1])
                        .set(org.jooq.impl.DSL.field(org.jooq.impl.DSL.name("lag_records")), (long) p[2])
                        .set(org.jooq.impl.DSL.field(org.jooq.impl.DSL.name("updated_at")), stored).execute();
            }
            // the clock: 38 h after the newest publication
            java.util.Map<String, java.time.OffsetDateTime> published = new java.util.TreeMap<>();
            w.dsl().select(org.jooq.impl.DSL.field(org.jooq.impl.DSL.name("dataset"), String.class),
                            org.jooq.impl.DSL.max(org.jooq.impl.DSL.field(org.jooq.impl.DSL.name("published_at"), java.time.OffsetDateTime.class)))
                    .from(dev.sluice.warehouse.meta.PublishedPartitionTable.TABLE).groupBy(org.jooq.impl.DSL.field(org.jooq.impl.DSL.name("dataset")))
                    .forEach(r -> published.put(r.value1(), r.value2()));
            java.time.Instant newest = published.values().stream().map(java.time.OffsetDateTime::toInstant).max(java.util.Comparator.naturalOrder())
                    .orElseThrow();
            Clock clock = Clock.fixed(newest.plus(java.time.Duration.ofHours(38)), java.time.ZoneOffset.UTC);
            try (LineageServer server = new LineageServer(new InetSocketAddress("127.0.0.1", 0), new LineageRepository(w.dsl()), TOKEN,
                    new CatalogApi(w.dsl(), spec, clock), null)) {
                JsonNode s = ok(server.port(), "/api/v1/status");
                assertThat(s.get("summary").toString()).isEqualTo("{\"failed_partitions\":1,\"stopped_partitions\":1,\"killed_partitions\":1,"
                        + "\"running_partitions\":1,\"failed_checks\":1,\"warned_checks\":2,\"late_datasets\":4,\"breached_datasets\":0,"
                        + "\"running_backfills\":1,\"killed_backfills\":1,\"hot_path_lag_records\":12}");

                JsonNode p = s.get("pipelines");
                assertThat(p).hasSize(1);
                JsonNode flights = p.get(0);
                assertThat(flights.get("pipeline").asText()).isEqualTo("flights");
                assertThat(flights.get("newest").get("run_id").asText()).isEqualTo(running.toString());
                assertThat(flights.get("newest").get("partition").asText()).isEqualTo("2001-01-07");
                assertThat(flights.get("newest").get("status").asText()).isEqualTo("STARTED");
                assertThat(flights.get("newest").get("process_gone").asBoolean()).isFalse();
                assertThat(flights.get("newest").get("ended_at").isNull()).isTrue();
                assertThat(flights.get("last_completed_partition").asText()).isEqualTo("2001-01-03");
                assertThat(flights.get("freshness").asText()).isEqualTo("WARN");
                assertThat(flights.get("problems")).extracting(x -> x.get("partition").asText() + " " + x.get("run_id").asText() + " "
                        + x.get("status").asText() + " gone=" + x.get("process_gone").asBoolean() + " " + x.get("stop_cause").asText()).containsExactly(
                                "2001-01-05 " + killed + " KILLED gone=true null",
                                "2001-01-08 " + stopped + " STOPPED gone=false CANCEL",
                                "2001-02-22 " + failed.runId() + " FAILED gone=false null");
                assertThat(flights.get("problems").get(1).get("message").asText()).isEqualTo("cancelled by ops");
                String failure = flights.get("problems").get(2).get("message").asText();
                assertThat(failure).as("the run's own failure message")
                        .isEqualTo(ok(server.port(), "/api/v1/runs/" + failed.runId()).get("message").asText())
                        .startsWith("step gate.gold.airport_daily_delays failed: gold.airport_daily_delays partition 2001-02-22:"
                                + " check avg_delay_in_range (expect_column_values_to_be_between) failed: 165 of 221 value(s) unexpected");
                assertThat(flights.get("running")).extracting(x -> x.get("partition").asText() + " " + x.get("run_id").asText())
                        .containsExactly("2001-01-07 " + running);
                assertThat(flights.get("backfills")).extracting(x -> x.get("backfill_id").asText() + " " + x.get("from").asText() + "…"
                        + x.get("to").asText() + " " + x.get("status").asText() + " gone=" + x.get("process_gone").asBoolean() + " "
                        + x.get("progress")).containsExactlyInAnyOrder(
                                killedBackfill + " 2001-01-05…2001-01-06 KILLED gone=true {\"RUNNING\":1}",
                                liveBackfill + " 2001-01-07…2001-01-07 RUNNING gone=false {\"RUNNING\":1}");

                // datasets: a FAILED check first, then the WARNED and the late ones, then the rest, each by name
                JsonNode d = s.get("datasets");
                assertThat(d).extracting(x -> x.get("dataset").asText() + " " + x.get("last_partition").asText() + " " + x.get("partitions").asInt())
                        .containsExactly("gold.airport_daily_delays 2001-01-03 1", "bronze.flights_raw null 0", "gold.airport_monthly_delays 2001-01 1",
                                "gold.route_daily 2001-01-03 1", "silver.flights 2001-02-22 2", "bronze.airports_raw null 0",
                                "landing/airports/airports.csv null 0", "landing/flights null 0", "silver.airports none 1");
                java.util.Set<String> declared = spec.datasets().keySet().stream().map(dev.sluice.core.DatasetRef::qualifiedName)
                        .collect(java.util.stream.Collectors.toSet());
                for (JsonNode x : d) {
                    String name = x.get("dataset").asText();
                    if (!declared.contains(name)) {
                        assertThat(x.get("freshness").isNull()).as(name).isTrue();
                        continue;
                    }
                    long tslu = java.time.Duration.between(published.get(name).toInstant(), clock.instant()).toSeconds();
                    assertThat(x.get("freshness").get("tslu_s").asLong()).as(name).isEqualTo(tslu);
                    assertThat(x.get("freshness").get("state").asText()).as(name).isEqualTo(name.equals("silver.airports") ? "OK" : "WARN");
                }
                assertThat(d.get(0).get("freshness").toString()).isEqualTo("{\"state\":\"WARN\",\"tslu_s\":"
                        + java.time.Duration.between(published.get("gold.airport_daily_delays").toInstant(), clock.instant()).toSeconds()
                        + ",\"warn_after\":\"PT36H\",\"sla\":\"PT40H\",\"owner\":\"flights-data-team\"}");
                List<String> checks = new java.util.ArrayList<>();
                d.forEach(x -> x.get("failing_checks").forEach(c -> checks.add(x.get("dataset").asText() + " " + c.get("partition").asText() + " "
                        + c.get("check").asText() + " " + c.get("status").asText() + " " + c.get("run_id").asText())));
                assertThat(checks).containsExactly(
                                "gold.airport_daily_delays 2001-02-22 avg_delay_in_range FAILED " + failed.runId(),
                                "bronze.flights_raw 2001-02-22 no_exact_duplicates WARNED " + failed.runId(),
                                "bronze.flights_raw 2001-01-03 no_exact_duplicates WARNED " + good.runId());
                assertThat(d.get(0).get("failing_checks").get(0).get("message").asText())
                        .startsWith("165 of 221 value(s) unexpected (74.661 %)");
                assertThat(d.get(1).get("failing_checks").get(1).get("message").asText())
                        .startsWith("6 of 16948 row(s) share their [date, delay, distance, origin, destination] with another row");

                long age = java.time.Duration.between(stored.toInstant(), clock.instant()).toSeconds();
                assertThat(s.get("hot_path").get("partitions").toString()).isEqualTo(
                        "[{\"group\":\"flights-hot\",\"topic\":\"flights.events\",\"partition\":0,\"next_offset\":8431,\"lag_records\":0,"
                                + "\"last_store_age_s\":" + age + "},{\"group\":\"flights-hot\",\"topic\":\"flights.events\",\"partition\":1,"
                                + "\"next_offset\":8420,\"lag_records\":12,\"last_store_age_s\":" + age + "}]");
                assertThat(s.get("hot_path").get("lag_source").asText()).contains("no broker is asked");
                // the pages the home page links the killed ones to: the run (no job execution recorded yet: it was a 500,
                // sorting an immutable empty list) and the backfill, whose row names the run only once it ends
                JsonNode killedRun = ok(server.port(), "/api/v1/runs/" + killed);
                assertThat(List.of(killedRun.get("status").asText(), killedRun.get("timeline").get("bars").size())).containsExactly("STARTED", 0);
                w.dsl().update(dev.sluice.control.backfill.BackfillRepository.PARTITIONS)
                        .setNull(org.jooq.impl.DSL.field(org.jooq.impl.DSL.name("run_id"))).execute();
                JsonNode killedFill = ok(server.port(), "/api/v1/backfills/" + killedBackfill);
                assertThat(killedFill.get("process_gone").asBoolean()).isTrue();
                assertThat(killedFill.get("partitions").get(0).get("status").asText()).isEqualTo("KILLED");
                assertThat(killedFill.get("partitions").get(0).get("run_id").asText()).isEqualTo(killed.toString());
                assertThat(killedFill.get("progress").toString()).isEqualTo("{\"KILLED\":1}");
                assertThat(killedFill.get("timeline").get("bars")).singleElement().satisfies(bar -> assertThat(
                        List.of(bar.get("name").asText(), bar.get("status").asText(), bar.get("run_id").asText()))
                        .containsExactly("2001-01-05", "STARTED", killed.toString()));
                HttpResponse<String> sub = get(server.port(), "/api/v1/status/x", TOKEN);
                assertThat(sub.statusCode()).isEqualTo(404);
                assertThat(JSON.readTree(sub.body()).get("error").asText()).isEqualTo("no such endpoint: /api/v1/status/x");
                assertThat(get(server.port(), "/api/v1/status", null).statusCode()).isEqualTo(401);
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
