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
}
