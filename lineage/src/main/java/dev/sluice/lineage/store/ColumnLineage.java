package dev.sluice.lineage.store;

import dev.sluice.config.ColumnSpec;
import dev.sluice.config.PiiPolicy;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.Layer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where each column of a Silver/Gold table comes from, read from its SELECT: the outermost
 * SELECT list is split into items, each item's output name is its {@code AS} alias (or its bare
 * column), and the columns its expression names are looked up in the input table, then in the
 * other tables the SQL names (a join). Subtype IDENTITY when the item is just the column,
 * AGGREGATION when it aggregates, else TRANSFORMATION; {@code masking} when a PII policy hashes or
 * masks the Bronze column on the way into Silver. A Bronze table's columns come unchanged
 * (IDENTITY) from its landed files. Stateless.
 */
public final class ColumnLineage {

    private static final Pattern IDENT = Pattern.compile("\\b([a-z_][a-z0-9_]*)(?:\\s*\\.\\s*([a-z_][a-z0-9_]*))?\\b");
    private static final Pattern ALIAS = Pattern.compile("(?s)^(.*)\\s+as\\s+([a-z_][a-z0-9_]*)\\s*$");
    private static final Pattern AGGREGATE = Pattern.compile("\\b(count|sum|avg|min|max|stddev\\w*|variance|var_\\w+)\\s*\\(");

    /** One input column of an output column. */
    public record Input(String column, String dataset, String field, String subtype, boolean masking) {
    }

    private ColumnLineage() {
    }

    /** The column lineage of {@code table} in {@code spec}; empty when it cannot be read from the SQL. */
    public static List<Input> of(PipelineSpec spec, TableSpec table) {
        if (table.layer() == Layer.BRONZE) {
            return table.columns().stream().map(c -> new Input(c.name(), "", c.name(), "IDENTITY", false)).toList();
        }
        String sql = stripLiterals(table.sql().toLowerCase(Locale.ROOT));
        List<String> items = selectItems(sql);
        if (items.isEmpty()) {
            return List.of();
        }
        List<TableSpec> candidates = new ArrayList<>();
        spec.table(table.inputTable().orElseThrow()).ifPresent(candidates::add);
        candidates.addAll(referenced(spec, table));
        Set<String> outputs = new LinkedHashSet<>();
        table.columns().forEach(c -> outputs.add(c.name()));
        List<Input> out = new ArrayList<>();
        for (String item : items) {
            String expr = item.strip();
            String name;
            Matcher alias = ALIAS.matcher(expr);
            if (alias.matches()) {
                name = alias.group(2);
                expr = alias.group(1).strip();
            } else {
                Matcher m = IDENT.matcher(expr);
                name = m.matches() ? (m.group(2) != null ? m.group(2) : m.group(1)) : null;
            }
            if (name == null || !outputs.contains(name)) {
                continue;
            }
            String subtype = AGGREGATE.matcher(expr).find() ? "AGGREGATION" : IDENT.matcher(expr).matches() ? "IDENTITY" : "TRANSFORMATION";
            Map<String, Input> found = new LinkedHashMap<>();
            Matcher m = IDENT.matcher(expr);
            while (m.find()) {
                String column = m.group(2) != null ? m.group(2) : m.group(1);
                for (TableSpec t : candidates) {
                    if (t.columns().stream().map(ColumnSpec::name).anyMatch(column::equals)) {
                        found.putIfAbsent(t.table().qualifiedName() + "." + column, new Input(name, t.table().qualifiedName(), column,
                                subtype, masked(spec, t, column)));
                        break;
                    }
                }
            }
            out.addAll(found.values());
        }
        return out;
    }

    /**
     * The other tables of the pipeline that a transform's SQL or its quarantine rules name (e.g. the
     * airports a flights Silver joins), besides its declared input: inputs of its lineage too.
     */
    public static List<TableSpec> referenced(PipelineSpec spec, TableSpec table) {
        StringBuilder text = new StringBuilder(table.sql());
        table.quarantine().forEach(r -> text.append(' ').append(r.when()));
        String sql = stripLiterals(text.toString().toLowerCase(Locale.ROOT));
        List<TableSpec> out = new ArrayList<>();
        for (TableSpec t : spec.tables()) {
            if (!t.equals(table) && !t.table().equals(table.inputTable().orElse(null))
                    && Pattern.compile("\\b" + Pattern.quote(t.table().qualifiedName()) + "\\b").matcher(sql).find()) {
                out.add(t);
            }
        }
        return out;
    }

    private static boolean masked(PipelineSpec spec, TableSpec input, String column) {
        if (input.layer() != Layer.BRONZE || input.source() == null) {
            return false;
        }
        PiiPolicy p = spec.source(input.source()).map(s -> s.policy(column)).orElse(PiiPolicy.KEEP);
        return p == PiiPolicy.HASH || p == PiiPolicy.MASK;
    }

    /** The items of the outermost SELECT list (split at top-level commas). */
    static List<String> selectItems(String sql) {
        int select = topLevel(sql, "select", 0);
        if (select < 0) {
            return List.of();
        }
        int from = topLevel(sql, "from", select + 6);
        String list = sql.substring(select + 6, from < 0 ? sql.length() : from);
        if (list.strip().startsWith("distinct ")) {
            list = list.strip().substring("distinct ".length());
        }
        List<String> items = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < list.length(); i++) {
            char c = list.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                items.add(list.substring(start, i));
                start = i + 1;
            }
        }
        items.add(list.substring(start));
        return items;
    }

    private static int topLevel(String sql, String word, int from) {
        int depth = 0;
        for (int i = from; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (depth == 0 && sql.startsWith(word, i) && (i == 0 || !Character.isLetterOrDigit(sql.charAt(i - 1)) && sql.charAt(i - 1) != '_')
                    && (i + word.length() == sql.length() || !Character.isLetterOrDigit(sql.charAt(i + word.length())))) {
                return i;
            }
        }
        return -1;
    }

    private static String stripLiterals(String sql) {
        return sql.replaceAll("'(?:[^']|'')*'", "''");
    }
}
