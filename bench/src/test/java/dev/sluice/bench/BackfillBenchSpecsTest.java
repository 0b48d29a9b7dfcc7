package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.config.SluiceEnvironment;
import dev.sluice.config.design.DesignFinding;
import dev.sluice.config.design.DesignRules;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The specs the whole-process measures run (the smoke run skips them) load and pass the design
 * rules that {@code sluice run} and {@code sluice backfill} enforce: a full bench run once lost its
 * one-partition measure to a derived spec that had dropped its write modes.
 */
class BackfillBenchSpecsTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"flights", "flights_bulk", "flights_nogates", "flights_bulk_nogates", "flights_lake", "flights_lake_bulk",
        "flights_lake_nogates", "flights_lake_bulk_nogates"})
    void everyDerivedSpecLoadsAndPassesTheDesignRules(String name) throws Exception {
        Path specs = BackfillBench.prepareSpecs(HotPathBench.root().resolve("pipelines"), dir);
        PipelineSpec spec = new PipelineSpecLoader(new SluiceEnvironment(Map.of("SLUICE_HOME", dir.toString(),
                "SLUICE_WAREHOUSE_URL", "jdbc:h2:mem:specs")).interpolator()).load(specs.resolve(name + ".yaml"));
        List<DesignFinding> blocking = DesignRules.blocking(DesignRules.check(spec), false);
        assertThat(blocking).extracting(DesignFinding::describe).isEmpty();
        assertThat(spec.name()).isEqualTo(name);
        assertThat(spec.hotPath() == null).isEqualTo(name.contains("bulk") || name.startsWith("flights_lake"));
        assertThat(spec.engine().kind().name()).isEqualTo(name.startsWith("flights_lake") ? "LAKEHOUSE" : "WAREHOUSE");
        assertThat(spec.tables().stream().flatMap(t -> t.checks().stream()).map(c -> c.expectation().id()).filter(e -> e.contains("partition")))
                .as("checks of the partition's dates, kept in a one-partition form, failed its gate")
                .hasSize(name.contains("bulk") || name.contains("nogates") ? 0 : 2);
    }
}
