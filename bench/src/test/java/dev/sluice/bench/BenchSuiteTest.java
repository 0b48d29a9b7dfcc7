package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.batch.testkit.TestHome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The smoke run of {@code ./sluice-bench} (2 flight days, one repeat, no whole-process measures)
 * so that the bench does not rot. The speed figures are not judged here; what each side loaded is:
 * 2001-01-02 and 2001-01-03 land 16,850 + 16,948 rows, and Silver keeps 16,850 + 16,945 (the 3
 * exact duplicates of the 3rd collapse, nothing is quarantined), as {@code BackfillIT} finds.
 */
class BenchSuiteTest {

    @TempDir
    Path work;

    @Test
    void aSmokeRunMeasuresEverySideAndWritesTheTableAndTheJson() throws Exception {
        ObjectNode report = BenchSuite.run(HotPathBench.root(), TestHome.withSampleData(), work, BenchSuite.Settings.smoke(List.of()));
        BenchSuite.write(report, work.resolve("out"));

        JsonNode bronze = report.at("/details/bronze");
        for (String side : List.of("SLUICE", "SLUICE_PARTITIONED", "SLUICE_LAKEHOUSE", "BASELINE", "BASELINE_REWRITE")) {
            assertThat(bronze.at("/rows/" + side).asLong()).as(side).isEqualTo(33_798);
        }
        JsonNode duck = report.at("/details/duckdb_rows");
        assertThat(duck.get("bronze_flights").asLong()).isEqualTo(33_798);
        assertThat(duck.get("quarantine").asLong()).isZero();
        assertThat(duck.get("silver_flights").asLong()).isEqualTo(16_850 + 16_945);

        List<String> measures = new ArrayList<>();
        report.get("rows").forEach(r -> measures.add(r.get("measure").asText()));
        assertThat(measures).hasSize(10);
        assertThat(measures.subList(0, 6)).allSatisfy(m -> assertThat(m).startsWith("Bronze ingest, rows/s (flights, 2 days, 33,798 rows"));
        assertThat(measures.get(0)).endsWith("one COPY stream (the 2 days as one partition)");
        assertThat(measures.get(2)).endsWith("one partition per day, parallelism 2");
        assertThat(measures.get(4)).endsWith("lakehouse engine, one stream (Iceberg Parquet files; catalog and control plane on PostgreSQL)");
        assertThat(report.get("rows").get(1).get("baseline").asText()).endsWith("`reWriteBatchedInserts=true`");
        assertThat(report.get("rows").get(4).get("goal").asText()).isEqualTo("≥ 3× faster");
        assertThat(report.get("rows").get(5).get("goal").asText()).isEqualTo("— (reported)");
        assertThat(report.at("/details/lakehouse").asText()).startsWith("skipped");
        assertThat(measures.get(6)).startsWith("orchestration overhead");
        assertThat(measures.get(7)).startsWith("hot path events/s");
        assertThat(measures.get(8)).startsWith("hot path p99 latency");
        assertThat(measures.get(9)).startsWith("lineage downstream closure over 500 runs");
        report.get("rows").forEach(r -> assertThat(r.get("sluice_median").asDouble()).as(r.get("measure").asText()).isPositive());
        assertThat(report.at("/details/lineage/samples").asLong()).isPositive();

        String md = Files.readString(work.resolve("out/benchmarks.md"));
        assertThat(md).contains("| measure | Sluice | baseline | ratio | goal | met |").contains("smoke run")
                .contains("| Bronze ingest, rows/s").contains("Spring Batch job: Parquet reader → JdbcBatchItemWriter, chunk 1,000: ");
        JsonNode json = new ObjectMapper().readTree(work.resolve("out/benchmarks.json").toFile());
        assertThat(json.get("rows")).hasSize(10);
        assertThat(json.at("/machine/cores").asInt()).isEqualTo(Runtime.getRuntime().availableProcessors());
    }

    /**
     * {@code ./sluice-bench --smoke --only hotsink}: 20,000 real flights through every side on one
     * broker and one PostgreSQL. Speeds are not judged; what each side took is: the ceiling parsed
     * each event's 5 fields, Sluice stored every event once in each warehouse, the latency runs
     * summarised 80 % of 1 s at each rate. A peer not built here is skipped and says why.
     */
    @Test
    void aSmokeRunOfHotsinkTakesEveryEventOnEachSide() throws Exception {
        ObjectNode report = BenchSuite.run(HotPathBench.root(), TestHome.withSampleData(), work, BenchSuite.Settings.smoke(List.of("hotsink")));
        BenchSuite.write(report, work.resolve("out"), "benchmarks-smoke");

        JsonNode d = report.at("/details/hotsink");
        assertThat(d.at("/events").asLong()).isEqualTo(20_000);
        assertThat(d.at("/ceiling/records").asLong()).isEqualTo(20_000);
        assertThat(d.at("/ceiling/fieldsSeen").asLong()).isEqualTo(5 * 20_000);
        for (String side : List.of("postgres", "h2")) {
            assertThat(d.at("/" + side + "/events").asLong()).as(side).isEqualTo(20_000);
            assertThat(d.at("/" + side + "/sinkRows").asLong()).as(side).isEqualTo(20_000);
            assertThat(d.at("/" + side + "/windowFlights").asLong()).as(side).isPositive().isLessThanOrEqualTo(20_000);
            assertThat(d.at("/" + side + "/eventsPerSecond").asDouble()).as(side).isPositive();
        }
        assertThat(d.at("/postgres/postgresCores").asDouble()).isPositive();
        assertThat(d.at("/h2/postgresCores").asDouble()).isZero();
        assertThat(d.at("/postgresLatency/0/rate").asInt()).isEqualTo(10_000);
        assertThat(d.at("/postgresLatency/0/latencies/samples").asInt()).isEqualTo(8_000);
        assertThat(d.at("/postgresLatency/1/rate").asInt()).isEqualTo(50_000);
        assertThat(d.at("/postgresLatency/1/latencies/samples").asInt()).isEqualTo(40_000);
        for (String peer : List.of("connect", "flink")) {
            assertThat(d.get(peer).isNull() ? d.get(peer + "Skipped").asText() : "measured").as(peer)
                    .satisfiesAnyOf(s -> assertThat(s).isEqualTo("measured"), s -> assertThat(s).startsWith("the peer is not built"));
        }
        if (!d.get("connect").isNull()) {
            assertThat(d.at("/connect/events").asLong()).isEqualTo(20_000);
        }
        if (!d.get("flink").isNull()) {
            assertThat(d.at("/flink/events").asLong()).isEqualTo(20_000);
        }

        assertThat(report.get("rows")).hasSize(8);
        assertThat(report.get("rows").get(1).get("measure").asText()).endsWith("Sluice vs the JSON-parsing ceiling");
        JsonNode rates = new ObjectMapper().readTree(HotPathBench.root().resolve("bench/target/hotsink-rates-smoke.json").toFile());
        assertThat(rates.get("smoke").asBoolean()).isTrue();
        assertThat(rates.at("/by_warehouse/postgresql/events_per_second").asDouble()).isEqualTo(d.at("/postgres/eventsPerSecond").asDouble());
        assertThat(Files.readString(work.resolve("out/benchmarks-smoke.md"))).contains("| hot path into an H2 file, events/s (20,000 real flights");
    }
}
