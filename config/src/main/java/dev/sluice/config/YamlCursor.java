package dev.sluice.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * A position in a parsed YAML document that knows its key path and reports problems to a shared
 * list instead of throwing, so that one pass finds every problem. Scalars are env-interpolated
 * when read. Not thread-safe; one per load.
 */
final class YamlCursor {

    static final String MISSING = "<missing>";

    private final String file;
    private final String path;
    private final JsonNode node;
    private final List<SpecProblem> problems;
    private final EnvInterpolator env;

    YamlCursor(String file, String path, JsonNode node, List<SpecProblem> problems, EnvInterpolator env) {
        this.file = file;
        this.path = path;
        this.node = node;
        this.problems = problems;
        this.env = env;
    }

    String path() {
        return path;
    }

    String pathOf(String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    void problem(String key, String value, String reason) {
        problems.add(new SpecProblem(file, key == null ? path : pathOf(key), value, reason));
    }

    void problemHere(String value, String reason) {
        problems.add(new SpecProblem(file, path, value, reason));
    }

    boolean has(String key) {
        return node.hasNonNull(key);
    }

    /** Reports keys outside {@code allowed} (typos would otherwise be silently ignored). */
    void allowOnly(Set<String> allowed) {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!allowed.contains(k)) {
                problem(k, abbreviate(node.get(k).toString()), "unknown key; allowed here: " + String.join(", ", new TreeSet<>(allowed)));
            }
        }
    }

    /** An interpolated scalar; reports a problem and returns empty when it is required and missing. */
    Optional<String> text(String key, boolean required) {
        JsonNode v = node.get(key);
        if (v == null || v.isNull()) {
            if (required) {
                problem(key, MISSING, "required");
            }
            return Optional.empty();
        }
        if (!v.isValueNode()) {
            problem(key, abbreviate(v.toString()), "expected a single value, not a list or map");
            return Optional.empty();
        }
        EnvInterpolator.Result r = env.interpolate(v.asText());
        boolean secret = key.contains("password") || key.contains("token");
        for (String name : r.unresolved()) {
            problem(key, secret ? "****" : v.asText(), name.contains(" ")
                    ? name : "environment variable " + name + " is not set and has no default (write ${" + name + ":-default})");
        }
        return r.unresolved().isEmpty() ? Optional.of(r.value()) : Optional.empty();
    }

    Optional<Integer> integer(String key, int defaultValue, int min) {
        Optional<String> t = text(key, false);
        if (t.isEmpty()) {
            return has(key) ? Optional.empty() : Optional.of(defaultValue);
        }
        try {
            int value = Integer.parseInt(t.get().trim());
            if (value < min) {
                problem(key, t.get(), "must be at least " + min);
                return Optional.empty();
            }
            return Optional.of(value);
        } catch (NumberFormatException e) {
            problem(key, t.get(), "not a whole number");
            return Optional.empty();
        }
    }

    /**
     * A required positive ISO-8601 duration ({@code PT24H}, {@code P1D}, {@code PT30M}); null after
     * a problem: the key is missing ({@code required}), the text is not a duration, or it is zero or
     * negative.
     */
    @Nullable Duration duration(String key) {
        return text(key, true).map(t -> {
            try {
                Duration d = Duration.parse(t);
                if (d.isNegative() || d.isZero()) {
                    problem(key, t, "a positive ISO-8601 duration, e.g. PT24H");
                    return null;
                }
                return d;
            } catch (DateTimeParseException e) {
                problem(key, t, "not an ISO-8601 duration (e.g. PT24H, P1D, PT30M)");
                return null;
            }
        }).orElse(null);
    }

    /**
     * An optional positive ISO-8601 duration: {@code otherwise} when the key is absent, and when its
     * value is not such a duration (then a problem is recorded, as by {@link #duration(String)}).
     */
    Duration duration(String key, Duration otherwise) {
        if (!has(key)) {
            return otherwise;
        }
        Duration d = duration(key);
        return d == null ? otherwise : d;
    }

    /** The keys of this map, in document order. */
    List<String> keys() {
        List<String> out = new ArrayList<>();
        node.fieldNames().forEachRemaining(out::add);
        return out;
    }

    Optional<YamlCursor> map(String key, boolean required) {
        JsonNode v = node.get(key);
        if (v == null || v.isNull()) {
            if (required) {
                problem(key, MISSING, "required");
            }
            return Optional.empty();
        }
        if (!v.isObject()) {
            problem(key, abbreviate(v.toString()), "expected a map of keys");
            return Optional.empty();
        }
        return Optional.of(new YamlCursor(file, pathOf(key), v, problems, env));
    }

    /** The items of a list; an absent optional list is empty. */
    List<YamlCursor> list(String key, boolean required) {
        JsonNode v = node.get(key);
        List<YamlCursor> items = new ArrayList<>();
        if (v == null || v.isNull()) {
            if (required) {
                problem(key, MISSING, "required");
            }
            return items;
        }
        if (!v.isArray()) {
            problem(key, abbreviate(v.toString()), "expected a list");
            return items;
        }
        for (int i = 0; i < v.size(); i++) {
            items.add(new YamlCursor(file, pathOf(key) + "[" + i + "]", v.get(i), problems, env));
        }
        return items;
    }

    /** The items of this node when it is a list (e.g. a list in a list); a problem and none otherwise. */
    List<YamlCursor> items() {
        List<YamlCursor> items = new ArrayList<>();
        if (!node.isArray()) {
            problemHere(abbreviate(node.toString()), "expected a list");
            return items;
        }
        for (int i = 0; i < node.size(); i++) {
            items.add(new YamlCursor(file, path + "[" + i + "]", node.get(i), problems, env));
        }
        return items;
    }

    /** The entries of a map, in file order, as (key, cursor) pairs. */
    List<Map.Entry<String, YamlCursor>> entries(String key, boolean required) {
        List<Map.Entry<String, YamlCursor>> out = new ArrayList<>();
        map(key, required).ifPresent(m -> {
            for (Iterator<Map.Entry<String, JsonNode>> it = m.node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                out.add(Map.entry(e.getKey(), new YamlCursor(file, m.pathOf(e.getKey()), e.getValue(), problems, env)));
            }
        });
        return out;
    }

    /** This node as an interpolated scalar (for list items and map values). */
    Optional<String> scalar() {
        if (!node.isValueNode() || node.isNull()) {
            problemHere(abbreviate(node.toString()), "expected a single value");
            return Optional.empty();
        }
        EnvInterpolator.Result r = env.interpolate(node.asText());
        r.unresolved().forEach(n -> problemHere(node.asText(), "environment variable " + n + " is not set and has no default"));
        return r.unresolved().isEmpty() ? Optional.of(r.value()) : Optional.empty();
    }

    /** True when this node is YAML's null (an unquoted {@code null} or {@code ~}). */
    boolean isNullValue() {
        return node.isNull();
    }

    /** True when this node is a YAML boolean (YAML 1.1 also reads unquoted yes/no/on/off as one). */
    boolean isBoolean() {
        return node.isBoolean();
    }

    /** The entry's text before interpolation (e.g. {@code ${SLUICE_PII_KEY_V1}}), or empty for a non-scalar. */
    Optional<String> rawText() {
        return node.isValueNode() && !node.isNull() ? Optional.of(node.asText()) : Optional.empty();
    }

    /** The shared problem list, for nested loaders (contracts). */
    List<SpecProblem> problemsSink() {
        return problems;
    }

    static String abbreviate(String s) {
        return s.length() > 80 ? s.substring(0, 77) + "..." : s;
    }
}
