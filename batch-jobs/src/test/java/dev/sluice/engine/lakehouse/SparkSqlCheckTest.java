package dev.sluice.engine.lakehouse;


import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.config.SluiceEnvironment;
import dev.sluice.config.SpecProblem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped pipelines' SQL as the lakehouse engine would hand it to Spark, parsed by Spark's
 * parser; and the problem a spec gets for SQL Spark cannot parse.
 */
class SparkSqlCheckTest {

    @TempDir
    Path dir;

    @Test
    void theShippedPipelinesParseWithSpark() throws IOException {
        for (String pipeline : List.of("flights", "earthquakes", "la_riots")) {
            PipelineSpec spec = lakehouse(pipeline, s -> s);
            assertThat(spec.engine().lakehouse()).isTrue();
            assertThat(SparkSqlCheck.check(spec)).as(pipeline).isEmpty();
        }
    }

    @Test
    void layerSqlThatCallsJavaIsAProblemQuotedOrNot() throws IOException {
        PipelineSpec spec = lakehouse("flights", s -> s
                .replace("               SUM(distance_mi) AS total_distance_mi\n",
                        "               SUM(distance_mi) AS total_distance_mi,\n               (SELECT `REFLECT`('java.lang.System', 'getenv', 'HOME')) AS home\n")
                .replace("when: distance <= 0", "when: java_method('java.lang.System', 'getenv', 'X') IS NOT NULL"));
        assertThat(SparkSqlCheck.check(spec)).extracting(SpecProblem::keyPath, SpecProblem::value)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("layers.silver[1].quarantine[2].when", "java_method(…)"),
                        org.assertj.core.groups.Tuple.tuple("layers.gold[0].sql", "reflect(…)"));
    }

    @Test
    void onlyAQueryIsAQueryWhereverTheWriteHides() {
        assertThat(dev.sluice.engine.lakehouse.internal.SparkParser.isQuery("SELECT * FROM gold.t")).isTrue();
        assertThat(dev.sluice.engine.lakehouse.internal.SparkParser.isQuery("WITH x AS (SELECT 1) SELECT * FROM x")).isTrue();
        for (String write : List.of("INSERT INTO gold.t SELECT * FROM gold.t",
                "WITH x AS (SELECT 1) INSERT INTO gold.t SELECT * FROM gold.t",
                "DELETE FROM gold.t", "UPDATE gold.t SET a = 1", "MERGE INTO gold.t t USING s ON t.a = s.a WHEN MATCHED THEN DELETE",
                "DROP TABLE gold.t", "CALL sluice.system.rollback_to_snapshot('gold.t', 1)", "INSERT OVERWRITE gold.t SELECT 1")) {
            assertThat(dev.sluice.engine.lakehouse.internal.SparkParser.isQuery(write)).as(write).isFalse();
        }
        assertThat(dev.sluice.engine.lakehouse.internal.SparkParser.javaCall(
                "SELECT a FROM t WHERE b IN (SELECT try_reflect('java.lang.System', 'getenv', 'K'))", false)).contains("try_reflect");
        assertThat(dev.sluice.engine.lakehouse.internal.SparkParser.javaCall("SELECT 'reflect(' AS text", false)).isEmpty();
    }

    @Test
    void aWarehousePipelineIsNotCheckedBySpark() throws IOException {
        PipelineSpec spec = load(copy("flights", s -> s.replace("SUM(flights) AS flights", "SUM(flights)) AS flights")));
        assertThat(spec.engine().lakehouse()).isFalse();
        assertThat(dev.sluice.engine.LayerEngines.provider(spec).validate(spec)).isEmpty();
    }

    @Test
    void sqlSparkCannotParseIsAProblemNamingTheLineAndTheToken() throws IOException {
        PipelineSpec spec = lakehouse("flights", s -> s
                .replace("               SUM(distance_mi) AS total_distance_mi\n", "               SUM(distance_mi)::BIGINT AS total_distance_mi\n")
                .replace("when: distance <= 0", "when: distance <="));
        List<SpecProblem> problems = SparkSqlCheck.check(spec);
        String file = spec.file().toString();
        assertThat(problems).containsExactly(
                new SpecProblem(file, "layers.silver[1].quarantine[2].when", "distance <=",
                        "Spark SQL cannot parse line 1 near end of input: Syntax error at or near end of input"
                                + "; layer SQL of the lakehouse engine is the shared subset (docs/engines.md)"),
                new SpecProblem(file, "layers.gold[0].sql", "SUM(distance_mi)::BIGINT AS total_distance_mi",
                        "Spark SQL cannot parse line 7 near ':': Syntax error at or near ':'"
                                + "; layer SQL of the lakehouse engine is the shared subset (docs/engines.md)"));
    }

    @Test
    void doublePrecisionParsesAndAnotherTwoWordTypeDoesNot() throws IOException {
        PipelineSpec spec = lakehouse("la_riots", s -> s.replace("AVG(CAST(age AS DOUBLE PRECISION)) AS avg_age",
                "AVG(CAST(age AS DOUBLE\n                 PRECISION)) AS avg_age,\n               CAST(age AS CHARACTER VARYING(3)) AS age_text"));
        List<SpecProblem> problems = SparkSqlCheck.check(spec);
        assertThat(problems).extracting(SpecProblem::keyPath).containsExactly("layers.gold[0].sql");
        assertThat(problems.get(0).value()).isEqualTo("CAST(age AS CHARACTER VARYING(3)) AS age_text");
        assertThat(problems.get(0).reason()).startsWith("Spark SQL cannot parse line 5 near 'VARYING': ");
    }

    private PipelineSpec lakehouse(String pipeline, java.util.function.UnaryOperator<String> edit) throws IOException {
        return load(copy(pipeline, s -> edit.apply(s) + "\nengine: lakehouse\n"));
    }

    private Path copy(String pipeline, java.util.function.UnaryOperator<String> edit) throws IOException {
        Path project = TestHome.projectRoot().resolve("pipelines");
        Path to = Files.createDirectories(dir.resolve(pipeline));
        Files.createDirectories(to.resolve("contracts"));
        try (Stream<Path> contracts = Files.list(project.resolve("contracts"))) {
            for (Path c : contracts.toList()) {
                Files.copy(c, to.resolve("contracts").resolve(c.getFileName()));
            }
        }
        String spec = Files.readString(project.resolve(pipeline + ".yaml"));
        String edited = edit.apply(spec);
        assertThat(edited.equals(spec) || !edited.isEmpty()).isTrue();
        return Files.writeString(to.resolve(pipeline + ".yaml"), edited);
    }

    private PipelineSpec load(Path file) {
        Map<String, String> env = Map.of("SLUICE_HOME", dir.resolve("home").toString(), "SLUICE_PII_KEY_V1", "k".repeat(40));
        return new PipelineSpecLoader(new SluiceEnvironment(env).interpolator()).load(file);
    }
}
