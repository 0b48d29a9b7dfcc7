package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.OffsetDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The {@code hotsink} rows, the table they render to and the rates file, from a run's figures
 * made up here (the measure itself runs in {@link BenchSuiteTest}).
 */
class HotSinkRowsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static HotSinkBench.Result result(boolean withConnect) {
        HotSinkBench.Plan plan = new HotSinkBench.Plan(500_000, 2, List.of(10_000, 50_000), 20, 5_000, false);
        JsonParsingConsumer.Read ceiling = new JsonParsingConsumer.Read(500_000, 2_000_000_000L, 2_500_000); // 250,000/s
        SluiceSinkRun.Throughput pg = new SluiceSinkRun.Throughput(500_000, 160_000, 1.4, 0.5, 0, 3, 500_000, 499_990);
        SluiceSinkRun.Throughput h2 = new SluiceSinkRun.Throughput(500_000, 40_000, 1.1, 0, 1, 0, 500_000, 499_990);
        List<SluiceSinkRun.Latency> latency = List.of(
                new SluiceSinkRun.Latency(10_000, 9_990, new Latencies(160_000, 40, 120, 300, 200), 0),
                new SluiceSinkRun.Latency(50_000, 49_000, new Latencies(800_000, 200, 700, 900, 800), 0));
        ConnectPeerBench.Result connect = withConnect ? new ConnectPeerBench.Result(500_000, 100_000, 1.2, 0.6,
                List.of(new double[] {10_000, 9_990, 30, 90, 150}, new double[] {50_000, 49_000, 80, 400, 600})) : null;
        return new HotSinkBench.Result(plan, 500_000, ceiling, pg, List.of(), h2, latency, connect,
                withConnect ? null : "the peer is not built (no bench/peers/connect/target/lib)", null,
                "the peer is not built (no bench/peers/flink/target/lib and target/classes)");
    }

    @Test
    void rowsJudgeEachGoalOfIssue29() {
        ArrayNode rows = JSON.createArrayNode();
        HotSinkRows.add(rows, result(true));

        assertThat(rows).hasSize(8);
        JsonNode connect = rows.get(0);
        assertThat(connect.get("measure").asText()).isEqualTo("hot path into PostgreSQL, events/s (500,000 real flights, 3 partitions,"
                + " 2 consumers, windows on): Sluice vs Kafka Connect + Debezium's JDBC sink (upserts, no windows)");
        assertThat(connect.get("ratio").asDouble()).isCloseTo(1.6, within(1e-9));
        assertThat(connect.get("met").asBoolean()).isTrue();
        assertThat(rows.get(1).get("ratio").asDouble()).isCloseTo(0.64, within(1e-9)); // 160,000 of the ceiling's 250,000
        assertThat(rows.get(1).get("met").asBoolean()).isTrue();
        assertThat(rows.get(2).get("sluice_median").asDouble()).isEqualTo(160_000);
        assertThat(rows.get(2).get("met").asBoolean()).isTrue();
        assertThat(rows.get(3).get("measure").asText()).startsWith("hot path into an H2 file");
        assertThat(rows.get(3).get("met").asBoolean()).isFalse(); // 40,000 < 50,000
        assertThat(rows.get(4).get("measure").asText()).isEqualTo("hot path into PostgreSQL, p99 latency at 10,000 events/s (sent 9,990/s), ms"
                + " (commit minus CreateTime; Sluice p50 40; Kafka Connect + Debezium at that rate: p50 30, p99 90)");
        assertThat(rows.get(4).get("met").asBoolean()).isTrue();
        assertThat(rows.get(5).get("sluice_median").asDouble()).isEqualTo(700);
        assertThat(rows.get(5).get("met").asBoolean()).isFalse();
        JsonNode flink = rows.get(6);
        assertThat(flink.get("met").isNull()).isTrue();
        assertThat(flink.get("not_measured").asText()).startsWith("the peer is not built");
        assertThat(flink.has("ratio")).isFalse();
        JsonNode cpu = rows.get(7);
        assertThat(cpu.get("measure").asText()).contains("PostgreSQL 0.50; under Connect: PostgreSQL 0.60; Sluice's JVM into H2 1.10");
        assertThat(cpu.get("sluice_median").asDouble()).isEqualTo(1.4);
        assertThat(cpu.get("baseline_median").asDouble()).isEqualTo(1.2);
    }

    @Test
    void aSkippedPeerRendersAsNotMeasuredNeverAsMet() {
        ArrayNode rows = JSON.createArrayNode();
        HotSinkRows.add(rows, result(false));
        ObjectNode report = JSON.createObjectNode().put("smoke", false).put("started_at", "2026-12-03T19:00:00Z")
                .put("ended_at", "2026-12-03T19:30:00Z").put("days", 182).put("from", "2001-01-01").put("to", "2001-07-01")
                .put("repeats", 1).put("process_repeats", 1);
        report.putObject("machine").put("cores", 2).put("memory", "24 GB").put("jvm", "OpenJDK 17").put("max_heap_mb", 6_144).put("os", "Linux");
        report.set("rows", rows);
        report.putObject("details");

        String md = BenchReport.markdown(report);

        assertThat(rows.get(0).get("met").isNull()).isTrue();
        assertThat(md).contains("Sluice vs Kafka Connect + Debezium's JDBC sink (upserts, no windows) | 160,000 | not measured: the peer is not"
                + " built (no bench/peers/connect/target/lib) | — | ≥ 1.5× | not measured |");
        assertThat(md).contains("Sluice vs the JSON-parsing ceiling | 160,000 | consumers that parse each record's JSON and discard it, 2 members:"
                + " 250,000 | 0.640× | ≥ 60 % | yes |");
        assertThat(md).contains("(commit minus CreateTime; Sluice p50 40) | 120 | — | — | p99 < 500 ms | yes |");
        assertThat(md).contains("Sluice's JVM into H2 1.10) | 1.40 | — | — | — (reported) | yes |");
    }

    @Test
    void theRatesFileGivesEachWarehouseKindItsRatePerConsumer() {
        ObjectNode rates = SluiceRates.of(result(true), OffsetDateTime.parse("2026-12-03T20:00:00Z"));

        assertThat(rates.get("measure").asText()).isEqualTo("hotsink");
        assertThat(rates.get("measured_at").asText()).isEqualTo("2026-12-03T20:00Z");
        assertThat(rates.get("smoke").asBoolean()).isFalse();
        assertThat(rates.get("consumers").asInt()).isEqualTo(2);
        assertThat(rates.get("events").asLong()).isEqualTo(500_000);
        assertThat(rates.at("/by_warehouse/postgresql/events_per_second").asDouble()).isEqualTo(160_000);
        assertThat(rates.at("/by_warehouse/postgresql/events_per_second_per_consumer").asDouble()).isEqualTo(80_000);
        assertThat(rates.at("/by_warehouse/h2/events_per_second_per_consumer").asDouble()).isEqualTo(20_000);
    }
}
