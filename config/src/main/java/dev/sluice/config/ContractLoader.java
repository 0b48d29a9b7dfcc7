package dev.sluice.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Loads a contract file ({@code contracts/<name>.v<N>.yaml}):
 * <pre>
 * contract: flights
 * version: 1
 * drift: fail            # an added column in a landed file: fail | ignore | evolve (default fail)
 * key: [id]              # optional: the columns that identify a source record
 * columns:
 *   - {name: date, type: timestamp, nullable: false}
 *   - {name: delay, type: int, min: -120, max: 2880}     # inclusive range
 *   - {name: gender, type: string, allowed: [Male, Female]}
 *   - {name: first_name, type: string, pii: true}         # the pipeline spec gives it a policy
 *   - {name: amount, type: decimal(12,2)}                 # exact: 10 digits before the point, 2 after
 *   - {name: score, type: double, lossy: true}            # 0.12345678901234567890 is rounded, not refused
 *   - {name: day, type: date, trim: true}                 # ' 2021-09-16 ' reads as 2021-09-16
 * </pre>
 * The version must match the file name's {@code .vN.yaml} when it has one.
 * Problems are added to the caller's list; nothing is thrown for bad content. Thread-safe.
 */
final class ContractLoader {

    /**
     * A lower-case SQL identifier of at most 63 characters: PostgreSQL cuts longer names
     * (NAMEDATALEN − 1, PostgreSQL docs §4.1.1), so two long names could become one.
     */
    static final Pattern IDENTIFIER = Pattern.compile("[a-z][a-z0-9_]{0,62}");
    /** What {@link #IDENTIFIER} allows, for messages. */
    static final String IDENTIFIER_RULE = "a lower-case identifier [a-z][a-z0-9_]* of at most 63 characters";
    /** The longest contract name ({@code sluice.schema_drift.contract} holds name and version). */
    static final int MAX_CONTRACT_NAME = 100;
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    private final EnvInterpolator env;

    ContractLoader(EnvInterpolator env) {
        this.env = env;
    }

    Optional<ContractSpec> load(Path file, List<SpecProblem> problems) {
        JsonNode root;
        try {
            root = YAML.readTree(file.toFile());
        } catch (IOException e) {
            problems.add(new SpecProblem(file.toString(), "", "", ContractLoader.yamlError(e)));
            return Optional.empty();
        }
        if (root == null || !root.isObject()) {
            problems.add(new SpecProblem(file.toString(), "", "", "expected a YAML map with contract, version, columns"));
            return Optional.empty();
        }
        List<SpecProblem> aliases = YamlAliases.of(file);
        if (!aliases.isEmpty()) {
            problems.addAll(aliases);
            return Optional.empty();
        }
        int before = problems.size();
        YamlCursor c = new YamlCursor(file.toString(), "", root, problems, env);
        c.allowOnly(Set.of("contract", "version", "description", "drift", "key", "columns"));
        Optional<String> name = c.text("contract", true);
        name.filter(n -> n.length() > MAX_CONTRACT_NAME).ifPresent(n -> c.problem("contract", n,
                "a contract name has at most " + MAX_CONTRACT_NAME + " characters"));
        Optional<Integer> version = c.integer("version", 1, 1);
        version.ifPresent(v -> {
            Matcher m = Pattern.compile("\\.v(\\d+)\\.ya?ml$").matcher(file.getFileName().toString());
            if (m.find() && Integer.parseInt(m.group(1)) != v) {
                c.problem("version", Integer.toString(v), "the file name says version " + m.group(1));
            }
        });
        DriftPolicy drift = c.text("drift", false).map(d -> DriftPolicy.parse(d).orElseGet(() -> {
            c.problem("drift", d, "one of fail, ignore, evolve");
            return DriftPolicy.FAIL;
        })).orElse(DriftPolicy.FAIL);
        List<ColumnSpec> columns = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        List<YamlCursor> items = c.list("columns", true);
        if (items.isEmpty() && c.has("columns")) {
            c.problem("columns", "[]", "a contract needs at least one column");
        }
        for (YamlCursor col : items) {
            col.allowOnly(Set.of("name", "type", "nullable", "path", "description", "pii", "min", "max", "allowed", "trim",
                    "lossy"));
            Optional<String> path = col.text("path", false);
            path.filter(p -> !p.startsWith("/")).ifPresent(p -> col.problem("path", p, "a JSON pointer starting with / (RFC 6901)"));
            Optional<String> colName = col.text("name", true);
            Optional<String> type = col.text("type", true);
            Optional<String> nullable = col.text("nullable", false);
            colName.ifPresent(n -> {
                if (!IDENTIFIER.matcher(n).matches()) {
                    col.problem("name", n, "a column name is " + IDENTIFIER_RULE);
                } else if (SqlIdentifiers.isReserved(n)) {
                    col.problem("name", n, "a reserved word in H2 or PostgreSQL SQL; choose another name (e.g. " + n + "_value)");
                } else if (!seen.add(n)) {
                    col.problem("name", n, "duplicate column");
                }
            });
            Optional<DecimalSpec> decimal = type.flatMap(ty -> decimal(col, "type", ty));
            Optional<ColumnType> t = type.flatMap(ty -> {
                if (decimal.isPresent()) {
                    return Optional.of(ColumnType.DECIMAL);
                }
                Optional<ColumnType> parsed = ColumnType.parse(ty).filter(p -> p != ColumnType.DECIMAL);
                if (parsed.isEmpty() && ColumnType.parse(ty).isPresent()) {
                    col.problem("type", ty, "a decimal has a precision and scale: decimal(p,s), e.g. decimal(12,2)");
                } else if (parsed.isEmpty() && !ty.strip().toLowerCase(Locale.ROOT).startsWith("decimal(")) {
                    col.problem("type", ty, "unknown type; one of " + typeList());
                }
                return parsed;
            });
            nullable.filter(n -> !n.equals("true") && !n.equals("false"))
                    .ifPresent(n -> col.problem("nullable", n, "true or false"));
            boolean isNullable = nullable.map(n -> !n.equals("false")).orElse(true);
            Optional<String> pii = col.text("pii", false);
            pii.filter(n -> !n.equals("true") && !n.equals("false")).ifPresent(n -> col.problem("pii", n, "true or false"));
            boolean trim = flag(col, "trim");
            boolean lossy = flag(col, "lossy");
            if (lossy && t.isPresent() && t.get() != ColumnType.FLOAT && t.get() != ColumnType.DOUBLE) {
                col.problem("lossy", "true", "lossy lets a float or double column round a value it cannot hold exactly;"
                        + " this column is " + type.orElse(""));
                lossy = false;
            }
            AllowedValues allowed = t.map(ty -> allowedValues(col, ty, decimal.orElse(null))).orElse(AllowedValues.ANY);
            if (colName.isPresent() && t.isPresent()) {
                columns.add(new ColumnSpec(colName.get(), t.get(), isNullable, path.orElse(null),
                        pii.map("true"::equals).orElse(false), allowed, decimal.orElse(null), trim, lossy));
            }
        }
        List<String> key = new ArrayList<>();
        for (YamlCursor k : c.list("key", false)) {
            k.scalar().ifPresent(n -> {
                if (!seen.contains(n)) {
                    k.problemHere(n, "a key column must be one of the contract's columns");
                } else if (key.contains(n)) {
                    k.problemHere(n, "named twice in the key");
                }
                key.add(n);
            });
        }
        if (problems.size() > before || name.isEmpty() || version.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new ContractSpec(file, name.get(), version.get(), columns, drift, key));
    }

    /** A column's {@code true}/{@code false} flag, false when absent. */
    private static boolean flag(YamlCursor col, String key) {
        Optional<String> v = col.text(key, false);
        v.filter(x -> !x.equals("true") && !x.equals("false")).ifPresent(x -> col.problem(key, x, "true or false"));
        return v.map("true"::equals).orElse(false);
    }

    /**
     * The shape of a {@code decimal(p,s)} type text; empty for another type. A decimal spelling
     * with a bad precision or scale is a problem.
     */
    static Optional<DecimalSpec> decimal(YamlCursor at, @Nullable String key, String type) {
        if (!type.strip().toLowerCase(Locale.ROOT).startsWith("decimal(")) {
            return Optional.empty();
        }
        Optional<DecimalSpec> d = DecimalSpec.parse(type);
        String reason = d.isEmpty() && !type.contains(")") ? "a decimal is decimal(p,s); in a YAML flow map { … } a comma"
                + " ends the value: quote it, e.g. type: 'decimal(12,2)'"
                : d.isEmpty() ? "decimal(p,s) with a precision p of 1 to " + DecimalSpec.MAX_PRECISION
                + " digits and a scale s of 0 to p, e.g. decimal(12,2)"
                : d.get().precision() > DecimalSpec.MAX_PRECISION ? "a decimal has at most " + DecimalSpec.MAX_PRECISION
                + " digits (Spark's and Iceberg's limit, for the lakehouse engine)" : null;
        if (reason == null) {
            return d;
        }
        if (key == null) {
            at.problemHere(type, reason);
        } else {
            at.problem(key, type, reason);
        }
        return Optional.empty();
    }

    /** {@code min}, {@code max} and {@code allowed} of a column, each literal checked against the type. */
    private static AllowedValues allowedValues(YamlCursor col, ColumnType type, @Nullable DecimalSpec decimal) {
        String min = bound(col, "min", type, decimal);
        String max = bound(col, "max", type, decimal);
        List<String> values = new ArrayList<>();
        int before = col.problemsSink().size();
        List<YamlCursor> items = col.list("allowed", false);
        if (col.has("allowed") && items.isEmpty() && col.problemsSink().size() == before) {
            col.problem("allowed", "[]", "an empty set allows nothing; list the values or leave allowed out");
        }
        for (YamlCursor v : items) {
            if (type == ColumnType.STRING && v.isBoolean()) {
                v.problemHere(v.rawText().orElse(""), "YAML reads an unquoted yes/no/on/off/true/false as a boolean;"
                        + " quote it (e.g. 'yes') for a string column");
                continue;
            }
            v.scalar().ifPresent(text -> {
                if (!type.acceptsLiteral(text)) {
                    v.problemHere(text, "not " + type.withArticle() + " value");
                } else if (unfit(text, decimal) != null) {
                    v.problemHere(text, unfit(text, decimal));
                } else if (values.contains(text)) {
                    v.problemHere(text, "listed twice");
                } else {
                    values.add(text);
                }
            });
        }
        if (min != null && max != null && type.acceptsLiteral(min) && type.acceptsLiteral(max)
                && compare(type, min, max) > 0) {
            col.problem("max", max, "is below min " + min);
        }
        return new AllowedValues(min, max, values);
    }

    /** Why a decimal literal does not fit the column's decimal(p,s), or null (also for other types). */
    private static @Nullable String unfit(String literal, @Nullable DecimalSpec decimal) {
        if (decimal == null) {
            return null;
        }
        try {
            decimal.fit(ExactNumbers.parse(literal));
            return null;
        } catch (ArithmeticException e) {
            return "does not fit: " + e.getMessage();
        }
    }

    private static @Nullable String bound(YamlCursor col, String key, ColumnType type,
            @Nullable DecimalSpec decimal) {
        Optional<String> text = col.text(key, false);
        if (text.isEmpty()) {
            return null;
        }
        if (!type.isOrdered()) {
            col.problem(key, text.get(), "a range applies to numbers, dates and timestamps; use allowed for a " + type.id());
            return null;
        }
        if (!type.acceptsLiteral(text.get())) {
            col.problem(key, text.get(), "not " + type.withArticle() + " value");
            return null;
        }
        if (unfit(text.get(), decimal) != null) {
            col.problem(key, text.get(), unfit(text.get(), decimal));
            return null;
        }
        return text.get();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compare(ColumnType type, String a, String b) {
        return ((Comparable) type.parseLiteral(a).orElseThrow()).compareTo(type.parseLiteral(b).orElseThrow());
    }

    static String typeList() {
        List<String> ids = new ArrayList<>();
        for (ColumnType t : ColumnType.values()) {
            ids.add(t == ColumnType.DECIMAL ? "decimal(p,s)" : t.id());
        }
        return String.join(", ", ids);
    }

    /** A YAML read error as a reason: where (line, column) and what, e.g. a duplicate key. */
    static String yamlError(IOException e) {
        if (e instanceof JsonProcessingException j && j.getLocation() != null) {
            return "not valid YAML at line " + j.getLocation().getLineNr() + ", column " + j.getLocation().getColumnNr()
                    + ": " + firstLine(new IOException(j.getOriginalMessage()));
        }
        return "cannot read: " + firstLine(e);
    }

    static String firstLine(Exception e) {
        String m = String.valueOf(e.getMessage());
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }

    static boolean exists(Path p) {
        return Files.isRegularFile(p);
    }
}
