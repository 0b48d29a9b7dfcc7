package dev.sluice.config;

import dev.sluice.core.DatasetRef;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Reads {@code hot_path.windows[]}, the live aggregates of a hot path ({@link WindowSpec}):
 * <pre>
 * windows:
 *   - table: gold.airport_delays_live   # required; schema gold; declared once
 *     kind: tumbling                    # required: tumbling, sliding or session
 *     size: PT1H                        # tumbling, sliding: required; a positive ISO-8601 duration of whole seconds
 *     slide: PT15M                      # sliding: required; divides size and is not longer
 *     gap: PT30M                        # session: required
 *     group_by: [origin]                # required (may be empty): columns of the event contract
 *     distinct_by_content: true         # default false: exact duplicates (same content) count once
 *     measures: {flights: count, avg_delay_min: avg(delay)}   # required: output column: count, or
 *                                       #   sum|avg|min|max(column) of an int, long, float or double column
 * </pre>
 * Problems are added to the cursor's list with their key paths; nothing is thrown for bad content.
 * A window whose table cannot be read is left out. Stateless.
 */
final class WindowReader {

    private static final Pattern MEASURE = Pattern.compile("(count)|(sum|avg|min|max)\\(([a-z][a-z0-9_]*)\\)");

    private WindowReader() {
    }

    /**
     * The windows of hot path {@code h}, in declaration order; empty without {@code windows}.
     *
     * @param columns the event contract's columns and types; empty when the hot path's source is
     *     not valid (reported already): column names are then not judged
     */
    static List<WindowSpec> windows(YamlCursor h, Map<String, ColumnType> columns) {
        List<WindowSpec> out = new ArrayList<>();
        Set<String> tables = new HashSet<>();
        for (YamlCursor w : h.list("windows", false)) {
            w.allowOnly(Set.of("table", "kind", "size", "slide", "gap", "group_by", "distinct_by_content", "measures"));
            DatasetRef table = w.text("table", true).map(t -> {
                try {
                    DatasetRef ref = DatasetRef.parse(t);
                    SqlIdentifiers.reservedName(ref).ifPresent(reason -> w.problem("table", t, reason));
                    return ref;
                } catch (RuntimeException e) {
                    w.problem("table", t, "a table, schema.table");
                    return null;
                }
            }).orElse(null);
            if (table != null && !table.schema().equals("gold")) {
                w.problem("table", table.qualifiedName(), "a live aggregate is Gold: the table lives in schema gold");
            }
            if (table != null && !tables.add(table.qualifiedName())) {
                w.problem("table", table.qualifiedName(), "declared twice");
            }
            String kindText = w.text("kind", true).orElse("tumbling");
            WindowSpec.Kind kind = switch (kindText) {
                case "tumbling" -> WindowSpec.Kind.TUMBLING;
                case "sliding" -> WindowSpec.Kind.SLIDING;
                case "session" -> WindowSpec.Kind.SESSION;
                default -> {
                    w.problem("kind", kindText, "tumbling, sliding or session");
                    yield WindowSpec.Kind.TUMBLING;
                }
            };
            Duration size = kind == WindowSpec.Kind.SESSION ? null : w.has("size") ? w.duration("size") : missing(w, "size");
            Duration slide = kind == WindowSpec.Kind.SLIDING ? (w.has("slide") ? w.duration("slide") : missing(w, "slide")) : null;
            Duration gap = kind == WindowSpec.Kind.SESSION ? (w.has("gap") ? w.duration("gap") : missing(w, "gap")) : null;
            if (size != null && size.toSeconds() * 1000 != size.toMillis()) {
                w.problem("size", size.toString(), "windows are whole seconds");
            }
            if (size != null && slide != null && (slide.compareTo(size) > 0 || size.toSeconds() % Math.max(1, slide.toSeconds()) != 0)) {
                w.problem("slide", slide.toString(), "a slide divides the window size (" + size + ") and is not longer");
            }
            List<String> groupBy = new ArrayList<>();
            for (YamlCursor g : w.list("group_by", true)) {
                g.scalar().ifPresent(col -> {
                    if (!columns.isEmpty() && !columns.containsKey(col)) {
                        g.problemHere(col, "not a column of the event contract");
                    }
                    groupBy.add(col);
                });
            }
            boolean distinct = w.text("distinct_by_content", false).map(Boolean::parseBoolean).orElse(false);
            Map<String, WindowSpec.Measure> measures = new LinkedHashMap<>();
            for (Map.Entry<String, YamlCursor> m : w.entries("measures", true)) {
                m.getValue().scalar().ifPresent(text -> {
                    Matcher mm = MEASURE.matcher(text.trim());
                    if (!mm.matches()) {
                        m.getValue().problemHere(text, "count, or sum|avg|min|max(column)");
                        return;
                    }
                    String column = mm.group(3);
                    if (column != null && !columns.isEmpty() && (!columns.containsKey(column) || !numeric(columns.get(column)))) {
                        m.getValue().problemHere(text, column + " is not a numeric column of the event contract");
                        return;
                    }
                    measures.put(m.getKey(), new WindowSpec.Measure(mm.group(1) != null ? "count" : mm.group(2), column));
                });
            }
            if (table != null) {
                out.add(new WindowSpec(table, kind, size, slide, gap, groupBy, distinct, measures));
            }
        }
        return out;
    }

    private static @Nullable Duration missing(YamlCursor w, String key) {
        w.problem(key, "<missing>", "required for this kind of window");
        return null;
    }

    /** A column a hot-path window measure may aggregate (its sums are kept as double; decimal is not such a column yet). */
    private static boolean numeric(ColumnType t) {
        return t == ColumnType.INT || t == ColumnType.LONG || t == ColumnType.FLOAT || t == ColumnType.DOUBLE;
    }
}
