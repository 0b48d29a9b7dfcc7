package dev.sluice.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.EnvInterpolator;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The quickstart's closing text names its engine, why, and commands on that pipeline's own tables. */
class QuickstartHintsTest {

    private static final Path LOG = Path.of("/home/x/logs/sluice.log");

    @Test
    void theWarehouseFlightsSayTheyAreTheDefaultAndPointAtTheLakehouseTwin() {
        String text = QuickstartHints.render(spec("flights"), describe(spec("flights")), "flights_lake", "2001-01-01", "2001-07-01", LOG);
        assertThat(text).startsWith("Engine: warehouse, the shipped default.")
                .contains("on one machine it runs this quickstart faster than the lakehouse\nengine")
                .contains("The same pipeline as Iceberg tables: ./sluice quickstart --pipeline flights_lake")
                .contains("  ./sluice sql \"SELECT * FROM gold.airport_daily_delays ORDER BY 1 LIMIT 20\"\n")
                .contains("  ./sluice sql \"SELECT rule_id, partition_key, source, source_pos, record_json FROM sluice.quarantine\"\n")
                .contains("  ./sluice quality show flights --partition 2001-07-01\n")
                .contains("  ./sluice lineage columns gold.airport_daily_delays.total_distance_mi\n")
                .contains("  ./sluice run flights --partition 2001-01-01 --rerun")
                .endsWith("  the full log of every run: /home/x/logs/sluice.log\n");
    }

    @Test
    void theLakehouseFlightsNameTheirLocationAndTheirOwnTables() {
        String text = QuickstartHints.render(spec("flights_lake"), describe(spec("flights_lake")), null, "2001-01-01", "2001-07-01", LOG);
        assertThat(text).startsWith("Engine: lakehouse. Bronze, Silver and Gold are Apache Iceberg tables under /home/x/lakehouse,")
                .contains("pays off on a Spark cluster (spark.master, docs/cluster.md)")
                .contains("  ./sluice sql --pipeline flights_lake \"SELECT * FROM gold.lake_airport_daily_delays ORDER BY 1 LIMIT 20\"\n")
                .contains("  ./sluice lineage upstream gold.lake_airport_daily_delays --format dot\n")
                .contains("  ./sluice run flights_lake --partition 2001-01-01            (refused: already COMPLETED)\n")
                .doesNotContain("sluice.quarantine", "gold.airport_daily_delays", "Iceberg tables: ./sluice quickstart");
    }

    private static PipelineSpec spec(String name) {
        Map<String, String> env = Map.of("SLUICE_HOME", "/home/x");
        return PipelineSpecLoader.forInspection(new EnvInterpolator(env::get))
                .load(TestHome.projectRoot().resolve("pipelines/" + name + ".yaml"));
    }

    private static dev.sluice.engine.EngineDescription describe(dev.sluice.config.PipelineSpec spec) {
        return dev.sluice.engine.LayerEngines.provider(spec).describe(spec);
    }
}
