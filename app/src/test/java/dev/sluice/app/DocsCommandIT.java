package dev.sluice.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.app.cli.ExitCodes;
import dev.sluice.app.cli.SluiceCommand;
import dev.sluice.operations.docs.DesignDocument;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.SluiceEnvironment;
import dev.sluice.warehouse.Warehouse;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice docs flights} after one real run of a flights partition (H2 warehouse, the sample
 * data): the document ends with the run-derived part naming that run, its COMPLETED status and the
 * gates' checks; {@code --no-runs} and {@code --out} give the spec-derived part only, equal to
 * the committed docs/pipelines/flights.md apart from the home; an unknown pipeline is a clear error.
 */
class DocsCommandIT {

    @TempDir
    Path tmp;

    private record Outcome(int code, String out, String err) {
    }

    private static Outcome sluice(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = SluiceCommand.execute(new SluiceEnvironment(env), new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Outcome(code, out.toString(), err.toString());
    }

    @Test
    void documentOfARunPipelineShowsItsRunAndQualityHistory() throws Exception {
        String url = TestHome.freshH2Url();
        Map<String, String> env = Map.of("SLUICE_HOME", TestHome.withSampleData().toString(), "SLUICE_WAREHOUSE_URL", url,
                "SLUICE_PIPELINES", TestHome.projectRoot().resolve("pipelines").toString());

        Outcome before = sluice(env, "docs", "flights");
        assertThat(before.code()).as(before.err()).isZero();
        assertThat(before.out()).doesNotContain(DesignDocument.RUN_DERIVED_START);

        Outcome run = sluice(env, "run", "flights", "--partition", "2001-07-01");
        assertThat(run.code()).as(run.err()).isZero();
        PipelineSpec spec = TestHome.flightsSpec(url, "sa", "");
        String runId;
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            runId = w.dsl().resultQuery("SELECT run_id FROM sluice.run WHERE pipeline = 'flights' AND partition_key = '2001-07-01'")
                    .fetchSingle(0, String.class);
        }

        Outcome docs = sluice(env, "docs", "flights");
        assertThat(docs.code()).as(docs.err()).isZero();
        String doc = docs.out();
        String runDerived = doc.substring(doc.indexOf(DesignDocument.RUN_DERIVED_START), doc.indexOf(DesignDocument.RUN_DERIVED_END));
        assertThat(runDerived).contains("## Recent runs", "## Quality history")
                .containsPattern("\\| 2001-07-01 \\| 0 \\| `" + runId + "` \\| COMPLETED \\| \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}Z \\| [^|]+ \\| [\\d,]+ / [\\d,]+ / [\\d,]+ \\| [\\d,]+ \\|")
                .contains("| `bronze.flights_raw` | source | `rows_landed` | PASSED |")
                .contains("| `silver.flights` | transform | `dup_count_positive` | PASSED |");
        assertThat(DesignDocument.specDerived(doc)).isEqualTo(DesignDocument.specDerived(sluice(env, "docs", "flights", "--no-runs").out()));

        Path out = tmp.resolve("nested/flights.md");
        Outcome written = sluice(env, "docs", "flights", "--no-runs", "--out", out.toString());
        assertThat(written.code()).as(written.err()).isZero();
        assertThat(written.out()).contains("design document of flights (spec-derived part only)");
        String committed = Files.readString(TestHome.projectRoot().resolve("docs/pipelines/flights.md"));
        assertThat(Files.readString(out)).isEqualTo(committed);
    }

    @Test
    void unknownPipelineIsAClearError() {
        Outcome o = sluice(Map.of("SLUICE_PIPELINES", TestHome.projectRoot().resolve("pipelines").toString()), "docs", "flihgts");
        assertThat(o.code()).isEqualTo(ExitCodes.INVALID);
        assertThat(o.err()).contains("no pipeline 'flihgts'").contains("earthquakes, flights, flights_lake, la_riots").doesNotContain("Exception");
    }
}
