package dev.sluice.quality;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.config.CheckSpec;
import dev.sluice.config.Expectation;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.config.Severity;
import dev.sluice.config.SluiceEnvironment;
import dev.sluice.config.SpecProblem;
import dev.sluice.config.SpecValidationException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One Great Expectations case for Sluice: whether it applies (GE's {@code spark} backend, Sluice's
 * vocabulary, each parameter one Sluice takes), the check it stands for, and its dataset loaded
 * into the warehouse. Stateless.
 */
final class GeCase {

    /** Trailing commas allowed: some upstream definition files have them (Python's json module refuses them, GE's loader does not). */
    static final ObjectMapper JSON = com.fasterxml.jackson.databind.json.JsonMapper.builder()
            .enable(com.fasterxml.jackson.core.json.JsonReadFeature.ALLOW_TRAILING_COMMA).build();

    /** GE's options of a call that say how to report, not what to check. */
    private static final Set<String> REPORTING = Set.of("result_format", "include_config", "catch_exceptions", "meta");

    /**
     * GE parameters Sluice does not take, at the one value that is Sluice's fixed behaviour too
     * (so the case means what Sluice does).
     */
    private static final Map<String, Map<Expectation, String>> FIXED = Map.of(
            "ignore_row_if", Map.of(Expectation.EXPECT_COMPOUND_COLUMNS_TO_BE_UNIQUE, "all_values_are_missing"),
            "parse_strings_as_datetimes", Map.of(),
            "allow_cross_type_comparisons", Map.of());

    /** The parameters GE's positional arguments stand for, where a file gives {@code in} as a list. */
    private static final Map<Expectation, List<String>> POSITIONAL = Map.of(
            Expectation.EXPECT_TABLE_ROW_COUNT_TO_EQUAL, List.of("value"),
            Expectation.EXPECT_TABLE_COLUMN_COUNT_TO_EQUAL, List.of("value"));

    private GeCase() {
    }

    /** Why the case is not judged, or empty when it applies. */
    static Optional<GeVerdict> skip(JsonNode root, JsonNode dataset, JsonNode test, Optional<Expectation> e) {
        if (names(dataset.path("suppress_test_for"), "spark") || names(test.path("suppress_test_for"), "spark")) {
            return Optional.of(GeVerdict.skipped("not for spark (suppress_test_for)", "GE does not run it on Spark"));
        }
        JsonNode only = test.has("only_for") ? test.path("only_for") : dataset.path("only_for");
        if (!only.isMissingNode() && !only.isNull() && !names(only, "spark")) {
            return Optional.of(GeVerdict.skipped("not for spark (only_for)", "only for " + only));
        }
        if (e.isEmpty()) {
            return Optional.of(GeVerdict.skipped("expectation outside Sluice's vocabulary", root.path("expectation_type").asText()));
        }
        JsonNode in = named(e.get(), test.path("in"));
        if (in.path("parse_strings_as_datetimes").asBoolean(false)) {
            return Optional.of(GeVerdict.skipped("parse_strings_as_datetimes (removed from GE)",
                    "Sluice judges values in their column's type (cast in the layer SQL)"));
        }
        if (in.has("row_condition")) {
            return Optional.of(GeVerdict.skipped("row_condition", "Sluice's checks judge a whole partition (filter in the layer SQL instead)"));
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = in.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            String k = f.getKey();
            boolean fixed = FIXED.containsKey(k) && (f.getValue().isNull() || f.getValue().isBoolean() && !f.getValue().asBoolean()
                    || f.getValue().asText().equals(FIXED.get(k).get(e.get())));
            if (!REPORTING.contains(k) && !k.equals("column") && !k.equals("mostly") && !e.get().parameters().contains(k) && !fixed) {
                return Optional.of(GeVerdict.skipped("parameter Sluice does not take", k + ": " + f.getValue()));
            }
        }
        return Optional.empty();
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

    /** {@code in} with named parameters (a positional list named per {@link #POSITIONAL}). */
    static JsonNode named(Expectation e, JsonNode given) {
        if (!given.isArray()) {
            return given;
        }
        ObjectNode named = JSON.createObjectNode();
        List<String> names = POSITIONAL.getOrDefault(e, List.of());
        for (int i = 0; i < given.size(); i++) {
            named.set(i < names.size() ? names.get(i) : "positional_" + i, given.get(i));
        }
        return named;
    }

    /**
     * The check the case's {@code in} stands for. A {@code mostly} that is not a number cannot be a
     * {@link CheckSpec}'s (a {@code Double}): it reaches Sluice only through a spec file, so it is
     * given to Sluice's spec reader, whose refusal is thrown.
     *
     * @param columns the dataset's columns and their SQL types
     * @throws SpecValidationException Sluice's spec reader's refusal of the check
     */
    static CheckSpec spec(Expectation e, JsonNode given, Map<String, String> columns) {
        JsonNode in = named(e, given);
        JsonNode mostly = in.path("mostly");
        if (!mostly.isMissingNode() && !mostly.isNull() && !mostly.isNumber()) {
            throw specReaderRefusal(e, in, columns);
        }
        Map<String, Object> params = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = in.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            if (e.parameters().contains(f.getKey()) && !f.getValue().isNull()) {
                params.put(f.getKey(), java(f.getValue()));
            }
        }
        String column = in.has("column") ? in.path("column").asText() : null;
        return new CheckSpec("ge_case", e, Severity.ERROR, mostly.isNumber() ? mostly.asDouble() : null, column, params);
    }

    /** The case's check in a one-table spec, read by Sluice's {@link PipelineSpecLoader}: its problems as an exception. */
    private static SpecValidationException specReaderRefusal(Expectation e, JsonNode in, Map<String, String> columns) {
        try {
            Path dir = Files.createTempDirectory("ge-spec");
            Files.createDirectories(dir.resolve("contracts"));
            StringBuilder contract = new StringBuilder("contract: ge\nversion: 1\ncolumns:\n");
            columns.forEach((c, t) -> contract.append("  - {name: ").append(c).append(", type: ").append(contractType(t)).append("}\n"));
            Files.writeString(dir.resolve("contracts/ge.v1.yaml"), contract.toString());
            ObjectNode check = JSON.createObjectNode().put("id", "ge_case").put("expect", e.id());
            in.fields().forEachRemaining(f -> {
                if (!REPORTING.contains(f.getKey())) {
                    check.set(f.getKey(), f.getValue());
                }
            });
            Path spec = dir.resolve("ge.yaml");
            Files.writeString(spec, """
                    pipeline: ge
                    warehouse: {url: "jdbc:h2:mem:x"}
                    sources: [{name: ge, format: csv, path: "/l/{partition}", contract: contracts/ge.v1.yaml}]
                    layers:
                      bronze:
                        - table: bronze.ge_raw
                          source: ge
                          checks:
                            - %s
                      silver: [{table: silver.ge, input: bronze.ge_raw, key: [c], columns: {c: long}, sql: "SELECT 1 AS c FROM {input} r"}]
                      gold: [{table: gold.ge, input: silver.ge, key: [c], columns: {c: long}, sql: "SELECT COUNT(*) AS c FROM {input} s"}]
                    """.formatted(JSON.writeValueAsString(check)));
            List<SpecProblem> problems = new PipelineSpecLoader(new SluiceEnvironment(Map.of()).interpolator()).validate(spec);
            if (problems.isEmpty()) {
                throw new IllegalStateException("Sluice's spec reader took " + check + ", which a check cannot carry");
            }
            return new SpecValidationException(problems);
        } catch (IOException x) {
            throw new UncheckedIOException(x);
        }
    }

    private static String contractType(String sqlType) {
        return switch (sqlType) {
            case "INTEGER", "BIGINT" -> "long";
            case "DOUBLE PRECISION" -> "double";
            case "DECIMAL(30,10)" -> "decimal";
            case "BOOLEAN" -> "boolean";
            case "DATE" -> "date";
            case "TIMESTAMP" -> "timestamp";
            default -> "string";
        };
    }

    /** The dataset's columns and their SQL types: {@code schemas.spark} when given, else inferred from the values. */
    static Map<String, String> columns(JsonNode dataset) {
        JsonNode data = dataset.path("data");
        JsonNode schema = dataset.path("schemas").path("spark");
        Map<String, String> types = new LinkedHashMap<>();
        for (Iterator<String> it = data.fieldNames(); it.hasNext(); ) {
            String c = it.next();
            types.put(c, schema.has(c) ? sqlType(schema.path(c).asText()) : inferred(data.path(c)));
        }
        return types;
    }

    /** Creates {@code table} with the dataset's rows, the 0-based row position as {@code _row_id}. */
    static void load(Connection db, String table, JsonNode dataset) throws Exception {
        JsonNode data = dataset.path("data");
        Map<String, String> types = columns(dataset);
        int rows = 0;
        for (String c : types.keySet()) {
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
        return switch (spark.replace("Type", "").toLowerCase(Locale.ROOT)) {
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

    private static @Nullable Object value(JsonNode v, String type) {
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
            return java.time.LocalDateTime.parse(text, java.time.format.DateTimeFormatter.ofPattern("MMM dd yyyy HH:mm:ss", Locale.ROOT));
        }
    }

    /** A JSON value as a check parameter: Long, Double, Boolean, String, a List or a Map of them (null kept in lists). */
    static @Nullable Object java(JsonNode v) {
        if (v.isNull()) {
            return null;
        }
        if (v.isObject()) {
            Map<String, Object> out = new java.util.TreeMap<>();
            v.fields().forEachRemaining(f -> out.put(f.getKey(), java(f.getValue())));
            return out;
        }
        if (v.isArray()) {
            List<Object> out = new ArrayList<>();
            v.forEach(x -> out.add(java(x)));
            return out;
        }
        return v.isIntegralNumber() ? (Object) v.asLong() : v.isNumber() ? (Object) v.asDouble()
                : v.isBoolean() ? (Object) v.asBoolean() : v.asText();
    }
}
