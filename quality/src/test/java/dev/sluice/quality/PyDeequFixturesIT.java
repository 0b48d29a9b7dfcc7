package dev.sluice.quality;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.config.CheckSpec;
import dev.sluice.config.Expectation;
import dev.sluice.config.Severity;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.Partition;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * python-deequ's own fixture datasets and the metric values its tests assert
 * ({@code pydeequ-fixtures.json}: tests/test_analyzers.py, tests/test_checks.py and tests/v2, each
 * case naming its file and line), replayed through {@code expect_metric_to_be_between}: each
 * dataset loaded into H2, each case's metric measured by the gate for one partition alone and in
 * a one-pass wave, and equal to pydeequ's value within 1e-9 (exact analyzers) or 1e-6
 * (ApproxCountDistinct, ApproxQuantile: on three rows their estimates are exact).
 */
class PyDeequFixturesIT {

    private static final QualityGate GATE = QualityGate.deequ("local[2]");
    private static final String URL = "jdbc:h2:mem:pydeequ-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    private static Connection db;
    private static JsonNode fixtures;

    @BeforeAll
    static void load() throws Exception {
        try (InputStream in = PyDeequFixturesIT.class.getResourceAsStream("pydeequ-fixtures.json")) {
            fixtures = new ObjectMapper().readTree(in);
        }
        db = DriverManager.getConnection(URL, "sa", "");
        for (var it = fixtures.path("datasets").fields(); it.hasNext(); ) {
            var e = it.next();
            load(e.getKey(), e.getValue());
        }
    }

    @AfterAll
    static void close() throws Exception {
        db.close();
    }

    private static void load(String name, JsonNode ds) throws Exception {
        List<String> columns = new ArrayList<>();
        ds.path("columns").forEach(c -> columns.add(c.asText()));
        StringBuilder ddl = new StringBuilder("CREATE TABLE " + name + " (_partition VARCHAR(10), _row BIGINT");
        for (int i = 0; i < columns.size(); i++) {
            ddl.append(", \"").append(columns.get(i)).append("\" ")
                    .append(ds.path("types").get(i).asText().equals("long") ? "BIGINT" : "VARCHAR(200)");
        }
        try (Statement st = db.createStatement()) {
            st.execute(ddl.append(")").toString());
        }
        String marks = ", ?".repeat(columns.size());
        try (PreparedStatement ps = db.prepareStatement("INSERT INTO " + name + " VALUES ('p', ?" + marks + ")")) {
            int r = 0;
            for (JsonNode row : ds.path("rows")) {
                ps.setLong(1, r++);
                for (int i = 0; i < columns.size(); i++) {
                    JsonNode v = row.get(i);
                    ps.setObject(i + 2, v.isNull() ? null : v.isNumber() ? (Object) v.asLong() : v.asText());
                }
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    @TestFactory
    Stream<DynamicTest> everyCaseMeasuresPyDeequsValue() {
        // every case of a dataset in one gate evaluation alone and one in a wave: the cases are the checks
        Map<String, List<CheckSpec>> byDataset = new LinkedHashMap<>();
        List<JsonNode> cases = new ArrayList<>();
        fixtures.path("cases").forEach(cases::add);
        for (int i = 0; i < cases.size(); i++) {
            byDataset.computeIfAbsent(cases.get(i).path("dataset").asText(), k -> new ArrayList<>()).add(spec("case" + i, cases.get(i)));
        }
        Map<String, CheckResult> alone = new java.util.HashMap<>();
        Map<String, CheckResult> grouped = new java.util.HashMap<>();
        byDataset.forEach((table, specs) -> {
            PartitionSource source = new PartitionSource.JdbcQuery(URL, "sa", "", "SELECT * FROM " + table, "_row", null);
            GATE.evaluate(DatasetRef.parse("t.v"), Partition.NONE, Boundary.SOURCE, source, specs, MetricHistory.NONE).checks()
                    .forEach(r -> alone.put(r.checkId(), r));
            PartitionBatch wave = new PartitionBatch.JdbcQueries(URL, "sa", "", table, columns(table), "_partition", "_row",
                    List.of(new PartitionBatch.Member(new Partition("p"), "_partition = 'p'", null)));
            GATE.evaluateAll(DatasetRef.parse("t.v"), Boundary.SOURCE, wave, specs, (id, p) -> new java.util.TreeMap<>())
                    .get(new Partition("p")).checks().forEach(r -> grouped.put(r.checkId(), r));
        });
        List<DynamicTest> tests = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            JsonNode c = cases.get(i);
            String id = "case" + i;
            String name = c.path("metric").asText() + " " + describe(c) + " on " + c.path("dataset").asText() + " (" + c.path("source").asText() + ")";
            tests.add(DynamicTest.dynamicTest(name, () -> {
                double tolerance = c.path("approximate").asBoolean() ? 1e-6 : 1e-9;
                CheckResult one = alone.get(id);
                CheckResult wave = grouped.get(id);
                assertThat(one.metric()).as("alone: %s", one.message()).isNotNull();
                assertThat(one.metric()).as("alone").isCloseTo(c.path("expected").asDouble(), within(tolerance));
                assertThat(wave.metric()).as("in a wave: %s", wave.message()).isNotNull();
                assertThat(wave.metric()).as("in a wave").isCloseTo(c.path("expected").asDouble(), within(tolerance));
            }));
        }
        assertThat(tests).hasSizeGreaterThan(90);
        return tests.stream();
    }

    private static List<String> columns(String table) {
        List<String> out = new ArrayList<>(List.of("_partition", "_row"));
        fixtures.path("datasets").path(table).path("columns").forEach(c -> out.add(c.asText()));
        return out;
    }

    private static CheckSpec spec(String id, JsonNode c) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("metric", c.path("metric").asText());
        if (c.has("column_list")) {
            List<Object> list = new ArrayList<>();
            c.path("column_list").forEach(x -> list.add(x.asText()));
            params.put("column_list", list);
        }
        if (c.has("other_column")) {
            params.put("other_column", c.path("other_column").asText());
        }
        if (c.has("quantile")) {
            params.put("quantile", c.path("quantile").asDouble());
        }
        String column = c.has("column") ? c.path("column").asText() : c.has("column_list") ? c.path("column_list").get(0).asText() : null;
        return new CheckSpec(id, Expectation.EXPECT_METRIC_TO_BE_BETWEEN, Severity.WARN, null, column, params);
    }

    private static String describe(JsonNode c) {
        StringBuilder b = new StringBuilder();
        for (String k : List.of("column", "column_list", "other_column", "quantile")) {
            if (c.has(k)) {
                b.append(b.length() == 0 ? "" : " ").append(k).append('=').append(c.path(k));
            }
        }
        return b.toString();
    }
}
