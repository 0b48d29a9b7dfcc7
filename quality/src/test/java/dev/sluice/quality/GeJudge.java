package dev.sluice.quality;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.config.Expectation;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Judges Sluice's answer to one Great Expectations case against the case's {@code out}, as GE's own
 * runner ({@code check_json_test_result} in {@code great_expectations/self_check/util.py}) does,
 * key by key, top-level or nested under {@code out.result}: {@code success} exactly; unexpected
 * lists and index lists order-insensitively; {@code observed_value} deeply (numbers by
 * {@code np.allclose}: relative 1e-7 and absolute 5e-2, or relative {@code tolerance}; lists in
 * order, maps by key); {@code traceback_substring}: the gate must refuse the check
 * ({@link InvalidCheckException}, or Sluice's spec reader where the input cannot reach the gate; never
 * another exception) with the same reason, GE's words or
 * the counterpart {@link #TRACEBACKS} names. A key Sluice's result has no counterpart for is never
 * passed over: the case is then reported as not judged whole; an empty {@code out} beside a
 * documented {@code error} (which GE's runner catches without asserting it) as nothing to judge,
 * with what Sluice did. Stateless.
 */
final class GeJudge {

    /** GE's {@code RTOL} and {@code ATOL} of its test runner. */
    private static final double RTOL = 1e-7;
    private static final double ATOL = 5e-2;

    /**
     * GE's exception texts and the words of Sluice's refusal for the same reason (Sluice's messages
     * are its own; the reason must be the same one).
     */
    static final Map<String, String> TRACEBACKS = Map.ofEntries(
            Map.entry("Minimum Threshold cannot be larger than Maximum Threshold", "min_value cannot be greater than max_value"),
            // the bound is no number at all ("quack"): GE's row count bounds must be integers, Sluice's numbers
            Map.entry("must be integers", "is not a number"));

    /** GE's result keys Sluice's result has no counterpart for, with why. */
    private static final Map<String, String> NO_COUNTERPART = Map.of(
            "missing_count", "Sluice's result does not count the rows left out",
            "missing_percent", "Sluice's result does not count the rows left out",
            "unexpected_percent", "GE's versions divide by all rows or by the non-missing ones",
            "unexpected_percent_total", "Sluice's result does not count the rows left out",
            "partial_unexpected_counts", "Sluice keeps a sample of values, not their counts",
            "details", "GE's details have no counterpart in Sluice's result",
            "value_counts", "Sluice's result carries the distinct values, not their counts",
            "observed_value_list", "several acceptable observed values (type names)");

    private GeJudge() {
    }

    /**
     * What the gate did with the case: a result, or what it threw.
     *
     * @param result the check's result, or null when the gate threw
     * @param raised what the gate threw, or null
     */
    record Run(@Nullable CheckResult result, @Nullable Throwable raised) {

        static Run of(CheckResult result) {
            return new Run(result, null);
        }

        static Run threw(Throwable raised) {
            return new Run(null, raised);
        }
    }

    /** Judges {@code run} against {@code test.out} (see the class comment). */
    static GeVerdict judge(JsonNode test, Expectation e, Run run) {
        JsonNode out = test.path("out");
        if (out.has("traceback_substring")) {
            return refusal(out.path("traceback_substring").asText(), run);
        }
        if (out.isEmpty() && test.has("error")) {
            // GE's runner catches the call's exception and asserts nothing: the error is documented, not GE's answer on a backend
            return GeVerdict.skipped("nothing to judge: out is empty (GE's runner does not assert the documented error)",
                    "error " + test.path("error") + "; Sluice " + (run.raised() != null ? "refused: " + describe(run.raised())
                            : "answered " + run.result().status() + ": " + run.result().message()));
        }
        if (run.raised() != null) {
            Throwable x = run.raised();
            if (refusal(x) && test.path("in").path("catch_exceptions").asBoolean(false)
                    && out.path("success").isBoolean() && !out.path("success").asBoolean() && !out.has("result")
                    && out.size() == 1) {
                // GE with catch_exceptions returns a failed result carrying the exception
                return GeVerdict.passed("refused (" + x.getMessage() + "); GE: success false with the exception caught");
            }
            return refusal(x) ? GeVerdict.failed("the gate refused (" + describe(x) + ") where GE answers " + out)
                    : GeVerdict.crashed("the gate threw " + describe(x) + " where GE answers " + out);
        }
        CheckResult r = run.result();
        List<String> disagree = new ArrayList<>();
        List<String> notJudged = new ArrayList<>();
        int compared = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it = out.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            if (f.getKey().equals("result") && f.getValue().isObject()) {
                for (Iterator<Map.Entry<String, JsonNode>> in = f.getValue().fields(); in.hasNext(); ) {
                    Map.Entry<String, JsonNode> g = in.next();
                    compared += compare("result." + g.getKey(), g.getKey(), g.getValue(), e, test, r, disagree, notJudged);
                }
            } else {
                compared += compare(f.getKey(), f.getKey(), f.getValue(), e, test, r, disagree, notJudged);
            }
        }
        if (!disagree.isEmpty()) {
            return GeVerdict.failed(String.join("; ", disagree) + " (" + r.status() + ": " + r.message() + ")");
        }
        if (!notJudged.isEmpty()) {
            return GeVerdict.skipped("not judged whole: GE result keys without a Sluice counterpart",
                    String.join("; ", notJudged) + (compared == 0 ? "" : " (the " + compared + " key(s) compared agree)"));
        }
        if (compared == 0) {
            return GeVerdict.skipped("nothing to judge: the case's out is empty", "out " + out);
        }
        return GeVerdict.passed(compared + " key(s) agree");
    }

    /** 1 when the key was compared (its disagreement, if any, added), 0 when it could not be. */
    private static int compare(String path, String key, JsonNode expected, Expectation e, JsonNode test, CheckResult r,
            List<String> disagree, List<String> notJudged) {
        switch (key) {
            case "success" -> {
                // no data: GE's verdict (map checks vacuously true, aggregates false) is the default no_data policy
                boolean success = r.status() == CheckStatus.PASSED || r.status() == CheckStatus.NO_DATA && !r.blocks();
                if (success != expected.asBoolean()) {
                    disagree.add(path + ": GE " + expected.asBoolean() + ", Sluice " + success);
                }
            }
            case "unexpected_list", "partial_unexpected_list" -> sample(path, r.unexpectedValues(), values(expected), r.unexpectedCount(),
                    disagree);
            case "unexpected_index_list", "partial_unexpected_index_list" -> {
                List<Object> ids = new ArrayList<>();
                expected.forEach(i -> ids.add(i.isObject() ? i.path("pk_index").asLong() : i.asLong()));
                sample(path, new ArrayList<>(r.unexpectedRowIds()), ids, r.unexpectedCount(), disagree);
            }
            case "unexpected_count" -> {
                if (r.unexpectedCount() != expected.asLong()) {
                    disagree.add(path + ": GE " + expected.asLong() + ", Sluice " + r.unexpectedCount());
                }
            }
            case "unexpected_percent_nonmissing" -> {
                double actual = r.elementCount() == 0 ? 0 : 100.0 * r.unexpectedCount() / r.elementCount();
                if (!close(actual, expected.asDouble(), test)) {
                    disagree.add(path + ": GE " + expected.asDouble() + ", Sluice " + actual);
                }
            }
            case "element_count" -> {
                if (e != Expectation.EXPECT_COLUMN_VALUES_TO_BE_NULL && e != Expectation.EXPECT_COLUMN_VALUES_TO_NOT_BE_NULL) {
                    // GE counts every row; Sluice's element count is the values (or rows) it judged
                    notJudged.add(path + " (GE counts all rows; Sluice's element count is what it judged)");
                    return 0;
                }
                if (r.elementCount() != expected.asLong()) {
                    disagree.add(path + ": GE " + expected.asLong() + ", Sluice " + r.elementCount());
                }
            }
            case "observed_value" -> {
                String why = observed(expected, r.observedValue(), test);
                if (why != null) {
                    disagree.add(path + ": GE " + expected + ", Sluice " + r.observedValue() + " (" + why + ")");
                }
            }
            default -> {
                notJudged.add(path + " (" + NO_COUNTERPART.getOrDefault(key, "no Sluice counterpart") + ")");
                return 0;
            }
        }
        return 1;
    }

    private static GeVerdict refusal(String substring, Run run) {
        if (run.raised() == null) {
            CheckResult r = run.result();
            return GeVerdict.failed("GE raises (" + substring + "); Sluice answered " + r.status() + ": " + r.message());
        }
        Throwable x = run.raised();
        if (!refusal(x)) {
            return GeVerdict.crashed("GE raises (" + substring + "); the gate threw " + describe(x) + ", not a refusal of the check");
        }
        String message = x.getMessage() == null ? "" : x.getMessage();
        if (message.contains(substring)) {
            return GeVerdict.passed("refused with GE's words: " + message);
        }
        for (Map.Entry<String, String> t : TRACEBACKS.entrySet()) {
            if (substring.contains(t.getKey()) && message.contains(t.getValue())) {
                return GeVerdict.passed("refused for the same reason: " + message);
            }
        }
        return GeVerdict.failed("GE raises (" + substring + "); Sluice refused for another reason, or one no counterpart names: " + message);
    }

    /** A refusal of the check: the gate's ({@link InvalidCheckException}) or the spec reader's ({@link SpecValidationException}). */
    private static boolean refusal(Throwable x) {
        return x instanceof InvalidCheckException || x instanceof dev.sluice.config.SpecValidationException;
    }

    private static String describe(Throwable x) {
        return x.getClass().getSimpleName() + (x.getMessage() == null ? " without a message" : ": " + x.getMessage().lines().findFirst()
                .orElse(""));
    }

    /**
     * GE's whole list against Sluice's sample of at most {@value CheckResult#SAMPLE}: the same
     * multiset when GE's list fits in the sample; else Sluice's sample is part of GE's list and
     * Sluice counted as many.
     */
    private static void sample(String path, List<?> actual, List<?> expected, long count, List<String> disagree) {
        List<String> a = canonical(actual);
        List<String> x = canonical(expected);
        boolean partial = path.contains("partial");
        if (expected.size() < CheckResult.SAMPLE || expected.size() == CheckResult.SAMPLE && !partial) {
            List<String> rest = new ArrayList<>(x);
            if (a.size() != x.size() || !a.stream().allMatch(rest::remove)) {
                disagree.add(path + ": GE " + x + ", Sluice " + a);
            }
        } else if (partial) {
            // GE's first 20 in its order: Sluice's sample is as full
            if (a.size() != CheckResult.SAMPLE) {
                disagree.add(path + ": GE " + x.size() + " " + x + ", Sluice " + a.size() + " " + a);
            }
        } else {
            List<String> rest = new ArrayList<>(x);
            if (count != expected.size() || !a.stream().allMatch(rest::remove)) {
                disagree.add(path + ": GE " + x.size() + " " + x + ", Sluice " + count + " " + a);
            }
        }
    }

    /** Null when {@code actual} is GE's {@code expected} observed value, else why not. */
    static @Nullable String observed(JsonNode expected, @Nullable Object actual, JsonNode test) {
        if (expected.isNull()) {
            return actual == null ? null : "GE observed nothing";
        }
        if (actual == null) {
            return "Sluice observed nothing";
        }
        if (expected.isNumber()) {
            if (!(actual instanceof Number n)) {
                return "not a number";
            }
            return close(n.doubleValue(), expected.asDouble(), test) ? null : "not within GE's tolerance";
        }
        if (expected.isBoolean()) {
            return actual instanceof Boolean b && b == expected.asBoolean() ? null : "another value";
        }
        if (expected.isTextual()) {
            return sameText(expected.asText(), actual) ? null : "another value";
        }
        if (expected.isArray()) {
            if (!(actual instanceof List<?> list) || list.size() != expected.size()) {
                return "not a list of " + expected.size();
            }
            for (int i = 0; i < list.size(); i++) {
                String why = observed(expected.get(i), list.get(i), test);
                if (why != null) {
                    return "element " + i + ": " + why;
                }
            }
            return null;
        }
        if (!(actual instanceof Map<?, ?> map)) {
            return "not a map";
        }
        List<String> keys = new ArrayList<>();
        expected.fieldNames().forEachRemaining(keys::add);
        if (!new TreeMap<>(map).keySet().stream().map(String::valueOf).toList().equals(keys.stream().sorted().toList())) {
            return "keys " + map.keySet() + ", GE's " + keys;
        }
        for (String k : keys) {
            String why = observed(expected.path(k), map.get(k), test);
            if (why != null) {
                return k + ": " + why;
            }
        }
        return null;
    }

    /** {@code np.allclose}: |a − e| ≤ atol + rtol·|e|, with the case's {@code tolerance} as rtol (atol 1e-8) when given. */
    private static boolean close(double actual, double expected, JsonNode test) {
        double rtol = test.has("tolerance") ? test.path("tolerance").asDouble() : RTOL;
        double atol = test.has("tolerance") ? 1e-8 : ATOL;
        return Math.abs(actual - expected) <= atol + rtol * Math.abs(expected);
    }

    /** A text GE observed: the same text, or the same number, date or timestamp written another way. */
    private static boolean sameText(String expected, Object actual) {
        String a = String.valueOf(actual);
        if (a.equals(expected)) {
            return true;
        }
        LocalDateTime x = time(expected);
        LocalDateTime y = actual instanceof java.sql.Timestamp t ? t.toLocalDateTime()
                : actual instanceof java.sql.Date d ? d.toLocalDate().atStartOfDay() : time(a);
        return x != null && x.equals(y);
    }

    private static @Nullable LocalDateTime time(String text) {
        try {
            return text.length() == 10 ? LocalDate.parse(text).atStartOfDay() : LocalDateTime.parse(text.replace(' ', 'T'));
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static List<Object> values(JsonNode array) {
        List<Object> out = new ArrayList<>();
        array.forEach(v -> out.add(GeCase.java(v)));
        return out;
    }

    static List<String> canonical(List<?> values) {
        List<String> out = new ArrayList<>();
        for (Object v : values) {
            out.add(canonical(v));
        }
        return out;
    }

    /** One value as text: numbers without trailing zeros, a pair by its values, a row (a map) by its sorted keys. */
    static String canonical(@Nullable Object v) {
        if (v instanceof List<?> l) {
            return l.stream().map(GeJudge::canonical).collect(java.util.stream.Collectors.joining(", ", "[", "]"));
        }
        if (v instanceof Map<?, ?> m) {
            StringBuilder b = new StringBuilder("{");
            new TreeMap<>(m).forEach((k, x) -> b.append(k).append('=').append(canonical(x)).append(';'));
            return b.append('}').toString();
        }
        if (v instanceof Number num) {
            BigDecimal d = new BigDecimal(num.toString()).stripTrailingZeros();
            return d.signum() == 0 ? "0" : d.toPlainString();
        }
        return String.valueOf(v);
    }
}
