package dev.sluice.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.app.cli.SluiceCommand;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.SluiceEnvironment;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice validate} of a lakehouse pipeline parses its layer SQL with Spark's parser: SQL
 * Spark cannot parse is a spec problem (exit 2) naming the key path, the line and the token; the
 * same SQL in a warehouse pipeline is not Spark's to judge.
 */
class ValidateLakehouseSqlCliTest {

    @TempDir
    Path dir;

    @Test
    void theShippedFlightsSqlIsValidOnTheLakehouse() throws Exception {
        Path file = write(flights() + "\nengine: lakehouse\n");
        Result v = sluice(file.getParent(), "validate", "flights");
        assertThat(v.code).as(v.all()).isZero();
        assertThat(v.err).isEmpty();
    }

    @Test
    void sqlSparkCannotParseIsAProblemOfALakehousePipelineOnly() throws Exception {
        String pg = flights().replace("               SUM(distance_mi) AS total_distance_mi\n",
                "               SUM(distance_mi)::BIGINT AS total_distance_mi\n");
        assertThat(pg).isNotEqualTo(flights());
        Path file = write(pg + "\nengine: lakehouse\n");
        Result v = sluice(file.getParent(), "validate", "flights");
        assertThat(v.code).as(v.all()).isEqualTo(2);
        assertThat(v.err).isEqualTo(file + ": 1 problem(s)\n  " + file + ": layers.gold[0].sql = SUM(distance_mi)::BIGINT AS"
                + " total_distance_mi: Spark SQL cannot parse line 7 near ':': Syntax error at or near ':'; layer SQL of the"
                + " lakehouse engine is the shared subset (docs/engines.md)\n");

        Path warehouse = write(pg);
        Result w = sluice(warehouse.getParent(), "validate", "flights");
        assertThat(w.code).as(w.all()).isZero();
    }

    private String flights() throws Exception {
        return Files.readString(TestHome.projectRoot().resolve("pipelines/flights.yaml"));
    }

    private Path write(String spec) throws Exception {
        Path pipelines = dir.resolve("pipelines");
        Path file = Files.exists(pipelines.resolve("flights.yaml")) ? pipelines.resolve("flights.yaml") : TestHome.copyFlightsSpec(pipelines);
        return Files.writeString(file, spec);
    }

    private record Result(int code, String out, String err) {
        String all() {
            return "exit " + code + "\n" + out + err;
        }
    }

    private Result sluice(Path pipelines, String... args) {
        Map<String, String> vars = Map.of("SLUICE_HOME", dir.resolve("home").toString(), "SLUICE_PIPELINES", pipelines.toString(),
                "SLUICE_WAREHOUSE_URL", "jdbc:h2:mem:lakehouse-sql-" + java.util.UUID.randomUUID());
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = SluiceCommand.execute(new SluiceEnvironment(vars), new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Result(code, out.toString(), err.toString());
    }
}
