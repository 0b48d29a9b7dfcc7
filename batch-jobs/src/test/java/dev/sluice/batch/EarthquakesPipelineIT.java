package dev.sluice.batch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.batch.job.RunSummary;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.warehouse.Warehouse;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.Partition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The project's {@code earthquakes} pipeline: one USGS GeoJSON feed file partitioned by the event's
 * UTC day ({@code partition_column}), nested fields mapped by JSON pointer, the contract's ranges and
 * sets quarantining bad events with the rule and column in the reason.
 */
class EarthquakesPipelineIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path home;

    @Test
    void theWeekOfTheFeedSplitsIntoDailyPartitions() {
        PipelineSpec spec = TestHome.projectSpec("earthquakes", TestHome.freshH2Url(), "sa", "", Map.of());
        List<Long> read = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            PipelineRunner runner = new PipelineRunner(w, TestHome.withSampleData());
            for (String day : List.of("2018-01-30", "2018-01-31", "2018-02-01", "2018-02-02", "2018-02-03", "2018-02-04",
                    "2018-02-05", "2018-02-06", "2018-02-07", "2018-02-08")) {
                RunSummary s = runner.run(spec, Partition.parseDaily(day), RunOptions.plain());
                assertThat(s.failure()).as(day).isNull();
                assertThat(s.silverRows()).as(day).isEqualTo(s.rowsRead());
                read.add(s.rowsRead());
                warnings.addAll(s.warnings());
            }
            assertThat(read).containsExactly(0L, 198L, 231L, 242L, 259L, 301L, 249L, 213L, 14L, 0L);
            assertThat(warnings).containsExactly(
                    "landing/earthquakes/earthquakes.json has no rows for partition 2018-01-30 (1707 rows of other partitions): 0 rows loaded",
                    "landing/earthquakes/earthquakes.json has no rows for partition 2018-02-08 (1707 rows of other partitions): 0 rows loaded");
            var dsl = w.dsl();
            assertThat(dsl.resultQuery("SELECT SUM(events), SUM(earthquakes), SUM(reviewed), COUNT(*) FROM gold.earthquakes_daily")
                    .fetchOne().intoList()).map(Object::toString).containsExactly("1707", "1679", "1214", "78");
            assertThat(dsl.resultQuery("SELECT net, events, max_mag FROM gold.earthquakes_daily WHERE event_date = DATE '2018-02-07' ORDER BY net")
                    .fetch().map(r -> r.get(0) + " " + r.get(1) + " " + r.get(2))).containsExactly(
                            "ak 8 3.8", "ci 4 2.0", "nc 2 0.96");
            assertThat(dsl.resultQuery("SELECT place, depth_km FROM silver.earthquakes WHERE id = 'ci37868143'").fetchOne().intoList())
                    .containsExactly("4km W of Castaic, CA", 26.49);
            assertThat(dsl.fetchCount(dsl.selectFrom("bronze.earthquakes_raw"))).isEqualTo(1707);
            assertThat(dsl.fetchCount(dsl.selectFrom("sluice.schema_drift"))).isZero();
        }
    }

    @Test
    void badEventsAreQuarantinedByTheContractAndEventsWithoutATimeByEveryPartition() throws Exception {
        ObjectNode feed = (ObjectNode) JSON.readTree(TestHome.withSampleData().resolve("landing/earthquakes/earthquakes.json").toFile());
        var features = feed.withArray("features");
        ((ObjectNode) features.get(0).get("properties")).put("mag", 11.5);           // ci37868143: above max
        ((ObjectNode) features.get(1).get("properties")).put("status", "rumoured");  // ci37868135: not in the set
        ((ObjectNode) features.get(2).get("properties")).remove("time");            // ci37868127: no partition value
        ((ObjectNode) features.get(3).get("properties")).putNull("mag");            // ak18384056: the spec's own rule
        Path landing = Files.createDirectories(home.resolve("landing/earthquakes"));
        JSON.writeValue(landing.resolve("earthquakes.json").toFile(), feed);

        PipelineSpec spec = TestHome.projectSpec("earthquakes", home, TestHome.freshH2Url(), "sa", "", Map.of());
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            PipelineRunner runner = new PipelineRunner(w, home);
            RunSummary feb7 = runner.run(spec, Partition.parseDaily("2018-02-07"), RunOptions.plain());
            assertThat(List.of(feb7.rowsRead(), feb7.bronzeRows(), feb7.silverRows(), feb7.duplicatesCollapsed(), feb7.quarantined()))
                    .containsExactly(14L, 14L, 10L, 0L, 4L);
            RunSummary feb6 = runner.run(spec, Partition.parseDaily("2018-02-06"), RunOptions.plain());
            assertThat(List.of(feb6.rowsRead(), feb6.bronzeRows(), feb6.silverRows(), feb6.quarantined()))
                    .containsExactly(214L, 214L, 213L, 1L);
            assertThat(w.dsl().resultQuery("SELECT partition_key || ' ' || rule_id || ': ' || reason FROM sluice.quarantine"
                    + " ORDER BY partition_key, source_pos").fetch(0, String.class)).containsExactly(
                    "2018-02-06 contract_violation: the row breaks its contract: "
                            + "[{\"column\":\"event_time\",\"reason\":\"nothing at /properties/time in a required column\",\"value\":\"\"}]",
                    "2018-02-07 contract_range: mag is outside [-2, 10] (contract earthquakes.v1)",
                    "2018-02-07 contract_allowed: status is not one of [automatic, reviewed, deleted] (contract earthquakes.v1)",
                    "2018-02-07 contract_violation: the row breaks its contract: "
                            + "[{\"column\":\"event_time\",\"reason\":\"nothing at /properties/time in a required column\",\"value\":\"\"}]",
                    "2018-02-07 magnitude_missing: mag is missing");
        }
    }
}
