package dev.sluice.quality;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.config.CheckSpec;
import dev.sluice.config.Expectation;
import dev.sluice.config.Severity;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.Partition;
import dev.sluice.quality.internal.deequ.DeequGate;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Great Expectations' own test definitions ({@code ../shared/fixtures/ge/}, see its README) run
 * through Sluice's Deequ gate, judged the way GE's runner judges them: each dataset is loaded into
 * the warehouse (H2, then PostgreSQL) with its row position as the row id, every applicable case
 * (GE's {@code spark} backend) is evaluated, and {@code success}, the unexpected list and index
 * list (order-insensitive) and {@code observed_value} (pytest.approx: relative 1e-7, absolute
 * 5e-2, or the case's tolerance) are compared. Each case is a dynamic test; a case Sluice cannot
 * express is skipped with its reason; the last test prints the pass rate and requires ≥ 98 % (issue 26).
 */
class GreatExpectationsConformanceIT {

    /** Trailing commas allowed: some upstream definition files have them (Python's json module refuses them, GE's loader does not). */
    private static final ObjectMapper JSON = com.fasterxml.jackson.databind.json.JsonMapper.builder()
            .enable(com.fasterxml.jackson.core.json.JsonReadFeature.ALLOW_TRAILING_COMMA).build();
    private static final DeequGate GATE = new DeequGate("local[2]");
    private static EmbeddedPostgres postgres;

    static Optional<Path> fixtures() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path f = d.resolve("shared/fixtures/ge");
            if (Files.isDirectory(f)) {
                return Optional.of(f);
            }
            f = d.resolve("../shared/fixtures/ge").normalize();
            if (Files.isDirectory(f) && Files.isRegularFile(d.resolve("pom.xml"))) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }

    @AfterAll
    static void stopPostgres() throws Exception {
        if (postgres != null) {
            postgres.close();
        }
    }

    @TestFactory
    Stream<DynamicTest> onH2() throws Exception {
        return suite("h2", "jdbc:h2:mem:ge-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa", "");
    }

    @TestFactory
    Stream<DynamicTest> onPostgres() throws Exception {
        postgres = EmbeddedPostgres.builder().start();
        return suite("postgresql", postgres.getJdbcUrl("postgres", "postgres"), "postgres", "postgres");
    }

    private Stream<DynamicTest> suite(String backend, String url, String user, String password) throws Exception {
        Optional<Path> dir = fixtures();
        if (dir.isEmpty()) {
            System.err.println("GE CONFORMANCE SKIPPED: ../shared/fixtures/ge is absent");
            Assumptions.abort("../shared/fixtures/ge is absent: the GE conformance suite did not run");
        }
        List<Path> files = new ArrayList<>(jsonFiles(dir.get()));
        String extra = System.getProperty("sluice.ge.extra", "");
        if (!extra.isBlank()) {
            // more of GE's definition files (third-party: kept outside the repository), e.g. the upstream suite
            Path more = Path.of(extra);
            if (!Files.isDirectory(more)) {
                throw new IllegalArgumentException("-Dsluice.ge.extra=" + extra + ": not a directory");
            }
            for (Path f : jsonFiles(more)) {
                if (files.stream().noneMatch(g -> g.getFileName().equals(f.getFileName()))) {
                    files.add(f);
                }
            }
        }
        Tally tally = new Tally();
        List<DynamicTest> tests = new ArrayList<>();
        Connection db = DriverManager.getConnection(url, user, password);
        try (Statement st = db.createStatement()) {
            st.execute("CREATE SCHEMA IF NOT EXISTS ge");
        }
        int n = 0;
        for (Path f : files) {
            JsonNode root;
            try {
                root = JSON.readTree(f.toFile());
            } catch (com.fasterxml.jackson.core.JacksonException e) {
                tally.skipped.add(f.getFileName() + " — unreadable JSON: " + e.getOriginalMessage());
                continue;
            }
            Optional<Expectation> expectation = Expectation.parse(root.path("expectation_type").asText());
            for (JsonNode dataset : root.path("datasets")) {
                String table = "ge.t" + (++n);
                boolean loaded = false;
                for (JsonNode test : dataset.path("tests")) {
                    String name = backend + " " + f.getFileName().toString().replace(".json", "") + ": " + test.path("title").asText();
                    String skip = GeCase.skipReason(root, dataset, test, expectation);
                    if (skip != null) {
                        if (!skip.startsWith("not for spark")) {
                            tally.skipped.add(name + " — " + skip);
                        }
                        continue;
                    }
                    if (!loaded) {
                        GeCase.load(db, table, dataset);
                        loaded = true;
                    }
                    tally.applicable++;
                    String query = "SELECT * FROM " + table;
                    tests.add(DynamicTest.dynamicTest(name, () -> {
                        try {
                            GeCase.judge(GATE, url, user, password, query, expectation.orElseThrow(), test);
                            tally.passed++;
                        } catch (AssertionError | RuntimeException e) {
                            tally.failed.add(name + " — " + e.getMessage().lines().findFirst().orElse(""));
                            throw e;
                        }
                    }));
                }
            }
        }
        tests.add(DynamicTest.dynamicTest(backend + " pass rate ≥ 98 %", () -> {
            db.close();
            double rate = tally.applicable == 0 ? 0 : 100.0 * tally.passed / tally.applicable;
            System.out.printf("GE CONFORMANCE %s: %d of %d applicable cases pass (%.1f %%), %d skipped%n",
                    backend, tally.passed, tally.applicable, rate, tally.skipped.size());
            tally.skipped.forEach(s -> System.out.println("  skipped: " + s));
            tally.failed.forEach(s -> System.out.println("  failed: " + s));
            assertThat(rate).isGreaterThanOrEqualTo(98.0);
        }));
        return tests.stream();
    }

    private static List<Path> jsonFiles(Path dir) throws java.io.IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
    }

    private static final class Tally {
        int applicable;
        int passed;
        final List<String> skipped = new ArrayList<>();
        final List<String> failed = new ArrayList<>();
    }

    /** One GE case: applicability, loading its dataset, running and judging it. */
    static final class GeCase {

        static String skipReason(JsonNode root, JsonNode dataset, JsonNode test, Optional<Expectation> e) {
            if (names(dataset.path("suppress_test_for"), "spark") || names(test.path("suppress_test_for"), "spark")) {
                return "not for spark (suppress_test_for)";
            }
            JsonNode only = test.has("only_for") ? test.path("only_for") : dataset.path("only_for");
            if (!only.isMissingNode() && !only.isNull() && !names(only, "spark")) {
                return "not for spark (only_for " + only + ")";
            }
            if (e.isEmpty()) {
                return "expectation " + root.path("expectation_type").asText() + " is not in Sluice's vocabulary";
            }
            JsonNode in = test.path("in");
            if (in.path("parse_strings_as_datetimes").asBoolean(false)) {
                return "parse_strings_as_datetimes (removed from GE): Sluice judges values in their column's type (cast in the layer SQL)";
            }
            if (in.has("row_condition")) {
                return "row_condition: Sluice's checks judge a whole partition (filter in the layer SQL instead)";
            }
            return null;
        }

        private static boolean names(JsonNode list, String backend) {
            if (list.isArray()) {
                for (JsonNode b : list) {
                    if (b.asText().equals(backend)) {
                        return true;
                    }
                }
            }
            return false;
        }

        static void load(Connection db, String table, JsonNode dataset) throws Exception {
            JsonNode data = dataset.path("data");
            JsonNode schema = dataset.path("schemas").path("spark");
            Map<String, String> types = new LinkedHashMap<>();
            int rows = 0;
            for (Iterator<String> it = data.fieldNames(); it.hasNext(); ) {
                String c = it.next();
                types.put(c, schema.has(c) ? sqlType(schema.path(c).asText()) : inferred(data.path(c)));
                rows = Math.max(rows, data.path(c).size());
            }
            StringBuilder ddl = new StringBuilder("CREATE TABLE " + table + " (_row_id BIGINT");
            types.forEach((c, t) -> ddl.append(", \"").append(c).append("\" ").append(t));
            try (Statement st = db.createStatement()) {
                st.execute(ddl.append(")").toString());
            }
            String marks = "?" + ", ?".repeat(types.size());
            StringBuilder insert = new StringBuilder("INSERT INTO " + table + " (_row_id");
            types.keySet().forEach(c -> insert.append(", \"").append(c).append('"'));
            try (PreparedStatement ps = db.prepareStatement(insert.append(") VALUES (").append(marks).append(")").toString())) {
                for (int r = 0; r < rows; r++) {
                    ps.setLong(1, r);
                    int i = 2;
                    for (Map.Entry<String, String> c : types.entrySet()) {
                        ps.setObject(i++, value(data.path(c.getKey()).path(r), c.getValue()));
                    }
                    ps.addBatch();
                }
                ps.executeBatch();
            }
        }

        private static String sqlType(String spark) {
            // the class names (IntegerType) and the simple names (int) both occur in GE's files
            return switch (spark.replace("Type", "").toLowerCase(java.util.Locale.ROOT)) {
                case "integer", "int", "short", "byte", "smallint", "tinyint" -> "INTEGER";
                case "long", "bigint" -> "BIGINT";
                case "float", "double", "real" -> "DOUBLE PRECISION";
                case "boolean" -> "BOOLEAN";
                case "decimal" -> "DECIMAL(30,10)";
                case "date" -> "DATE";
                case "timestamp" -> "TIMESTAMP";
                default -> "VARCHAR(1000)";
            };
        }

        private static String inferred(JsonNode values) {
            boolean ints = true;
            boolean numbers = true;
            boolean bools = true;
            boolean any = false;
            for (JsonNode v : values) {
                if (v.isNull()) {
                    continue;
                }
                any = true;
                ints &= v.isIntegralNumber();
                numbers &= v.isNumber();
                bools &= v.isBoolean();
            }
            return !any ? "VARCHAR(1000)" : ints ? "BIGINT" : numbers ? "DOUBLE PRECISION" : bools ? "BOOLEAN" : "VARCHAR(1000)";
        }

        private static Object value(JsonNode v, String type) {
            if (v.isMissingNode() || v.isNull()) {
                return null;
            }
            return switch (type) {
                case "INTEGER" -> v.asInt();
                case "BIGINT" -> v.asLong();
                case "DOUBLE PRECISION" -> v.asDouble();
                case "DECIMAL(30,10)" -> v.decimalValue();
                case "BOOLEAN" -> v.asBoolean();
                case "DATE" -> java.sql.Date.valueOf(java.time.LocalDate.parse(v.asText().substring(0, 10)));
                case "TIMESTAMP" -> java.sql.Timestamp.valueOf(timestamp(v.asText()));
                default -> v.asText();
            };
        }

        /** A timestamp as the fixtures write them: ISO, or e.g. {@code Jan 01 1970 12:00:01} (read by dateutil in GE). */
        private static java.time.LocalDateTime timestamp(String text) {
            if (text.length() == 10) {
                // a date alone: GE (dateutil) reads it as that day's midnight
                return java.time.LocalDate.parse(text).atStartOfDay();
            }
            try {
                return java.time.LocalDateTime.parse(text.replace(' ', 'T'));
            } catch (java.time.format.DateTimeParseException e) {
                return java.time.LocalDateTime.parse(text, java.time.format.DateTimeFormatter.ofPattern("MMM dd yyyy HH:mm:ss", java.util.Locale.ROOT));
            }
        }

        /** The parameters GE's positional arguments stand for, where a file gives {@code in} as a list. */
        private static final Map<Expectation, List<String>> POSITIONAL = Map.of(
                Expectation.EXPECT_TABLE_ROW_COUNT_TO_EQUAL, List.of("value"),
                Expectation.EXPECT_TABLE_COLUMN_COUNT_TO_EQUAL, List.of("value"));

        static CheckSpec spec(Expectation e, JsonNode given) {
            JsonNode in = given;
            if (given.isArray()) {
                com.fasterxml.jackson.databind.node.ObjectNode named = JSON.createObjectNode();
                List<String> names = POSITIONAL.getOrDefault(e, List.of());
                for (int i = 0; i < given.size() && i < names.size(); i++) {
                    named.set(names.get(i), given.get(i));
                }
                in = named;
            }
            Map<String, Object> params = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = in.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                if (e.parameters().contains(f.getKey()) && !f.getValue().isNull()) {
                    params.put(f.getKey(), java(f.getValue()));
                }
            }
            Double mostly = in.has("mostly") && !in.path("mostly").isNull() ? in.path("mostly").asDouble() : null;
            String column = in.has("column") ? in.path("column").asText() : null;
            return new CheckSpec("ge_case", e, Severity.ERROR, mostly, column, params);
        }

        private static Object java(JsonNode v) {
            if (v.isObject()) {
                Map<String, Object> out = new java.util.TreeMap<>();
                v.fields().forEachRemaining(f -> out.put(f.getKey(), f.getValue().isNull() ? null : java(f.getValue())));
                return out;
            }
            if (v.isArray()) {
                List<Object> out = new ArrayList<>();
                v.forEach(x -> out.add(x.isNull() ? null : java(x)));
                return out;
            }
            return v.isIntegralNumber() ? (Object) v.asLong() : v.isNumber() ? (Object) v.asDouble()
                    : v.isBoolean() ? (Object) v.asBoolean() : v.asText();
        }

        static void judge(QualityGate gate, String url, String user, String password, String query, Expectation e, JsonNode test) {
            JsonNode out = test.path("out");
            CheckSpec spec = spec(e, test.path("in"));
            PartitionSource source = new PartitionSource.JdbcQuery(url, user, password, query, "_row_id", null);
            if (out.has("traceback_substring")) {
                boolean threw = false;
                try {
                    gate.evaluate(DatasetRef.parse("ge.t"), Partition.NONE, Boundary.SOURCE, source, List.of(spec), MetricHistory.NONE);
                } catch (RuntimeException x) {
                    threw = true;
                }
                assertThat(threw).as("GE raises (%s)", out.path("traceback_substring").asText()).isTrue();
                return;
            }
            CheckResult r;
            try {
                r = gate.evaluate(DatasetRef.parse("ge.t"), Partition.NONE, Boundary.SOURCE, source, List.of(spec),
                        MetricHistory.NONE).checks().get(0);
            } catch (InvalidCheckException x) {
                // GE with catch_exceptions returns a failed result carrying the exception instead of raising
                assertThat(test.path("in").path("catch_exceptions").asBoolean()).as("raised: %s", x.getMessage()).isTrue();
                if (out.has("success")) {
                    assertThat(out.path("success").asBoolean()).as("raised: %s", x.getMessage()).isFalse();
                }
                return;
            }
            if (out.has("success")) {
                // no data: GE's verdict (map checks vacuously true, aggregates false) is the default no_data policy
                boolean success = r.status() == CheckStatus.PASSED || r.status() == CheckStatus.NO_DATA && !spec.noDataBlocks();
                assertThat(success).as("success (%s %s)", r.status(), r.message()).isEqualTo(out.path("success").asBoolean());
            }
            if (out.has("unexpected_list")) {
                assertThat(canonical(r.unexpectedValues())).as("unexpected_list")
                        .containsExactlyInAnyOrderElementsOf(canonical(listOf(out.path("unexpected_list"))));
            }
            if (out.has("unexpected_index_list")) {
                List<String> expected = new ArrayList<>();
                for (JsonNode i : out.path("unexpected_index_list")) {
                    expected.add(Long.toString(i.isObject() ? i.path("pk_index").asLong() : i.asLong()));
                }
                assertThat(r.unexpectedRowIds().stream().map(String::valueOf).toList()).as("unexpected_index_list")
                        .containsExactlyInAnyOrderElementsOf(expected);
            }
            if (out.has("observed_value")) {
                JsonNode o = out.path("observed_value");
                if (o.isNumber()) {
                    assertThat(r.observedValue()).as("observed_value").isInstanceOf(Number.class);
                    double actual = ((Number) r.observedValue()).doubleValue();
                    double tolerance = test.has("tolerance") ? test.path("tolerance").asDouble()
                            : Math.max(1e-7 * Math.abs(o.asDouble()), 5e-2);
                    assertThat(actual).as("observed_value").isCloseTo(o.asDouble(), org.assertj.core.data.Offset.offset(tolerance));
                } else if (o.isNull()) {
                    assertThat(r.observedValue()).as("observed_value").isNull();
                }
            }
        }

        private static List<Object> listOf(JsonNode array) {
            List<Object> out = new ArrayList<>();
            array.forEach(v -> out.add(v.isNull() ? null : java(v)));
            return out;
        }

        private static List<String> canonical(List<Object> values) {
            List<String> out = new ArrayList<>();
            for (Object v : values) {
                out.add(canonical(v));
            }
            return out;
        }

        /** One value as text: numbers without trailing zeros, a row of values (a map) by its sorted keys. */
        private static String canonical(Object v) {
            if (v instanceof List<?> l) {
                // a pair's unexpected value [a, b]
                return l.stream().map(x -> canonical((Object) x)).collect(java.util.stream.Collectors.joining(", ", "[", "]"));
            }
            if (v instanceof Map<?, ?> m) {
                StringBuilder b = new StringBuilder("{");
                new java.util.TreeMap<>(m).forEach((k, x) -> b.append(k).append('=').append(canonical(x)).append(';'));
                return b.append('}').toString();
            }
            return v == null ? "null" : v instanceof Number num
                    ? new BigDecimal(num.toString()).stripTrailingZeros().toPlainString() : v.toString();
        }
    }
}
