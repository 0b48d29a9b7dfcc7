package dev.sluice.hotpath;

import dev.sluice.config.WindowSpec;
import dev.sluice.warehouse.ColumnTypes;
import java.sql.PreparedStatement;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.function.Function;
import org.jooq.DSLContext;
import org.jooq.DataType;
import org.jooq.Field;
import org.jooq.SQLDialect;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.jspecify.annotations.Nullable;

/**
 * Incremental maintenance of tumbling and sliding windows: the events a batch adds to the counts
 * are folded into the windows they belong to, instead of recomputing those windows from the sink
 * (which costs a scan of every event of a window per batch: quadratic in a window's size). Per
 * batch: the events aggregated in memory to one row per window ({@link WindowState}), then one
 * upsert of them all on PostgreSQL, {@code INSERT … SELECT * FROM unnest(?, ?, …) ON CONFLICT
 * (group columns, window_start_s) DO UPDATE}, its columns bound as arrays ({@link PostgresArrays})
 * and its SQL rendered once, so the driver prepares it once per connection (it was a jOOQ batch of
 * one upsert per window, bound by jOOQ row by row: 10.7 % of the hot path's samples, profile of
 * 2026-12-04); on H2 jOOQ's emulation of the upsert (one {@code MERGE} per row, in one JDBC batch).
 *
 * <p>Per window ({@link WindowState}): count and sum add up, min/max take the extreme, avg keeps
 * its non-null count and sum in the helper columns {@code _n_<measure>} and {@code _sum_<measure>}
 * (a recomputation writes them too), so that avg = sum / n exactly as SQL's AVG. Sums of integer columns are kept as BIGINT (exact);
 * of floating columns as DOUBLE (rounding may differ from a recomputation in the last bits). The
 * caller passes only events that were not counted before, and holds the window table's lock where
 * the upsert alone is not enough ({@link WindowStore#add}).
 * Stateless apart from the spec; thread-safe.
 */
final class WindowIncrement {

    private final WindowSpec window;
    private final WindowTable windowTable;
    private final Table<?> table;
    /** The PostgreSQL upsert's SQL, rendered on first use (the same for every batch). */
    private volatile @Nullable String arraysSql;

    WindowIncrement(WindowSpec window, WindowTable windowTable) {
        this.window = window;
        this.windowTable = windowTable;
        this.table = windowTable.table();
    }

    /** The windows (start, epoch seconds) an event at {@code epochS} belongs to. */
    private long[] starts(long epochS) {
        long size = window.size().toSeconds();
        if (window.kind() == WindowSpec.Kind.TUMBLING) {
            return new long[] {Math.floorDiv(epochS, size) * size};
        }
        long slide = window.slide().toSeconds();
        int n = (int) (size / slide);
        long last = Math.floorDiv(epochS, slide) * slide;
        long[] out = new long[n];
        for (int j = 0; j < n; j++) {
            out[j] = last - j * slide;
        }
        return out;
    }

    /**
     * Folds {@code events} (each counted for the first time, its group without nulls) into their
     * windows: aggregated here to one row per window, then one upsert per window row, all in one JDBC
     * batch, in the order of the windows' keys (group values, then start), so that two batches
     * upserting the same windows lock their rows in the same order.
     */
    void add(DSLContext tx, List<EventDecoder.Event> events, Function<EventDecoder.Event, List<Object>> groupOf) {
        Map<List<Object>, WindowState> delta = new TreeMap<>(WindowIncrement::compareKeys);
        for (EventDecoder.Event e : events) {
            List<Object> group = new ArrayList<>();
            groupOf.apply(e).forEach(v -> group.add(asStored(v)));
            for (long start : starts(e.eventTime().getEpochSecond())) {
                List<Object> key = new ArrayList<>(group);
                key.add(start);
                delta.computeIfAbsent(key, k -> new WindowState(window)).add(e.values());
            }
        }
        if (delta.isEmpty()) {
            return;
        }
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        List<Field<?>> target = new ArrayList<>();
        List<Field<?>> key = new ArrayList<>();
        for (String g : window.groupBy()) {
            target.add(DSL.field(DSL.name(g), ColumnTypes.of(windowTable.column(g))));
            key.add(DSL.field(DSL.name(window.table().schema(), window.table().table(), g))); // qualified: H2's MERGE names both sides' columns alike
        }
        target.add(DSL.field(DSL.name("window_start_s"), SQLDataType.BIGINT));
        key.add(DSL.field(DSL.name(window.table().schema(), window.table().table(), "window_start_s")));
        target.add(DSL.field(DSL.name("window_end_s"), SQLDataType.BIGINT));
        target.add(DSL.field(DSL.name("window_start"), SQLDataType.LOCALDATETIME(0)));
        target.add(DSL.field(DSL.name("window_end"), SQLDataType.LOCALDATETIME(0)));
        target.addAll(measureFields());
        target.add(DSL.field(DSL.name("_updated_at"), SQLDataType.TIMESTAMPWITHTIMEZONE));
        long size = window.size().toSeconds();
        List<List<@Nullable Object>> rows = new ArrayList<>(delta.size());
        for (Map.Entry<List<Object>, WindowState> d : delta.entrySet()) {
            List<Object> k = d.getKey();
            long start = (Long) k.get(k.size() - 1);
            List<@Nullable Object> row = new ArrayList<>(k);
            row.add(start + size);
            row.add(LocalDateTime.ofEpochSecond(start, 0, ZoneOffset.UTC));
            row.add(LocalDateTime.ofEpochSecond(start + size, 0, ZoneOffset.UTC));
            row.addAll(d.getValue().measureValues());
            row.add(now);
            rows.add(row);
        }
        if (tx.family() == SQLDialect.POSTGRES && PostgresArrays.carriesAll(rows)) {
            upsertByArrays(tx, target, rows);
            return;
        }
        List<Field<?>> placeholders = new ArrayList<>();
        target.forEach(f -> placeholders.add(DSL.val(null, f.getDataType())));
        var batch = tx.batch(tx.insertInto(table, target).values(placeholders).onConflict(key).doUpdate().set(merged()));
        for (List<@Nullable Object> row : rows) {
            batch = batch.bind(row.toArray());
        }
        batch.execute();
    }

    /** The PostgreSQL upsert of {@code rows} (in {@code target}'s order) by one statement over their column arrays. */
    private void upsertByArrays(DSLContext tx, List<Field<?>> target, List<List<@Nullable Object>> rows) {
        String sql = arraysSql;
        if (sql == null) {
            sql = arraysSql(tx, target);
            arraysSql = sql;
        }
        String statement = sql;
        tx.connection(c -> {
            try (PreparedStatement ps = c.prepareStatement(statement)) {
                for (int col = 0; col < target.size(); col++) {
                    List<@Nullable Object> values = new ArrayList<>(rows.size());
                    for (List<@Nullable Object> row : rows) {
                        values.add(row.get(col));
                    }
                    ps.setArray(col + 1, PostgresArrays.of(c, target.get(col).getDataType(), values));
                }
                ps.executeUpdate();
            }
        });
    }

    /**
     * {@code INSERT INTO t (columns) SELECT * FROM unnest(CAST(? AS type[]), …) ON CONFLICT (group
     * columns, window_start_s) DO UPDATE SET …} ({@link #merged}): unnest keeps the arrays' order,
     * so the window rows are locked in the order of their keys.
     */
    private String arraysSql(DSLContext tx, List<Field<?>> target) {
        StringJoiner columns = new StringJoiner(", ");
        StringJoiner arrays = new StringJoiner(", ");
        for (Field<?> f : target) {
            columns.add(tx.render(DSL.name(f.getName())));
            arrays.add("CAST(? AS " + f.getDataType().getCastTypeName(tx.configuration()) + "[])");
        }
        StringJoiner conflict = new StringJoiner(", ");
        window.groupBy().forEach(g -> conflict.add(tx.render(DSL.name(g))));
        conflict.add(tx.render(DSL.name("window_start_s")));
        StringJoiner set = new StringJoiner(", ");
        merged().forEach((column, value) -> set.add(tx.render(DSL.name(column.getName())) + " = " + tx.renderInlined(value)));
        return "INSERT INTO " + tx.render(table) + " (" + columns + ") SELECT * FROM unnest(" + arrays + ") ON CONFLICT (" + conflict
                + ") DO UPDATE SET " + set;
    }

    /**
     * The SET of the upsert: each measure of the stored row ({@code t}) merged with the batch's
     * ({@code excluded}). count adds; sum adds, NULL (no value yet) on either side leaving the
     * other; min/max the extreme of the non-NULL ones (COALESCE around LEAST/GREATEST, which H2 and
     * PostgreSQL treat differently with a NULL argument); the avg helpers add (a NULL helper, of a
     * table from before them, read as 0) and avg is their quotient, NULL for no values.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private Map<Field<?>, Field<?>> merged() {
        Map<Field<?>, Field<?>> set = new LinkedHashMap<>();
        var names = window.table();
        window.measures().forEach((name, m) -> {
            Field t = DSL.field(DSL.name(names.schema(), names.table(), name), windowTable.type(m));
            Field x = DSL.excluded(DSL.field(DSL.name(name), windowTable.type(m)));
            Field<?> value = switch (m.function()) {
                case "count" -> t.plus(x);
                case "sum" -> DSL.coalesce(t.plus(x), t, x);
                case "min" -> DSL.coalesce(DSL.least(t, x), t, x);
                case "max" -> DSL.coalesce(DSL.greatest(t, x), t, x);
                default -> {
                    Field n = helperSum(names.schema(), names.table(), "_n_" + name, SQLDataType.BIGINT);
                    Field sum = helperSum(names.schema(), names.table(), "_sum_" + name, SQLDataType.DOUBLE);
                    set.put(DSL.field(DSL.name("_n_" + name), SQLDataType.BIGINT), n);
                    set.put(DSL.field(DSL.name("_sum_" + name), SQLDataType.DOUBLE), sum);
                    yield DSL.when(n.eq(DSL.inline(0L)), DSL.inline((Double) null)).otherwise(sum.div(n));
                }
            };
            set.put(DSL.field(DSL.name(name), windowTable.type(m)), value);
        });
        set.put(DSL.field(DSL.name("_updated_at"), SQLDataType.TIMESTAMPWITHTIMEZONE),
                DSL.excluded(DSL.field(DSL.name("_updated_at"), SQLDataType.TIMESTAMPWITHTIMEZONE)));
        return set;
    }

    /** {@code COALESCE(t.<helper>, 0) + excluded.<helper>}. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Field<?> helperSum(String schema, String tableName, String helper, DataType<?> type) {
        Field t = DSL.field(DSL.name(schema, tableName, helper), type);
        Field x = DSL.excluded(DSL.field(DSL.name(helper), type));
        return DSL.coalesce(t, DSL.inline(0, type)).plus(x);
    }

    /**
     * A group value as the window table's key column holds it, so that two values Java tells apart
     * but the database takes as one key (timestamps within one microsecond: TIMESTAMP(6)) fold into
     * one window row: one upsert statement must not touch a row twice (PostgreSQL refuses "ON
     * CONFLICT DO UPDATE command cannot affect row a second time"). -0.0 needs no folding here: the
     * decoder already reads it as 0.0 ({@code WindowKeysIT} sends both).
     */
    private static Object asStored(Object v) {
        if (v instanceof LocalDateTime t) {
            return t.truncatedTo(ChronoUnit.MICROS);
        }
        return v;
    }

    /** Window keys (group values, comparable and not null, then the start) in their natural order, element by element. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compareKeys(List<Object> a, List<Object> b) {
        for (int i = 0; i < a.size(); i++) {
            int c = ((Comparable) a.get(i)).compareTo(b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    /** The measure columns and helper columns, in the order {@link WindowState#measureValues} gives them. */
    private List<Field<?>> measureFields() {
        List<Field<?>> out = new ArrayList<>();
        window.measures().forEach((name, m) -> out.add(DSL.field(DSL.name(name), windowTable.type(m))));
        WindowTable.helpers(window).forEach((name, type) -> out.add(DSL.field(DSL.name(name), type)));
        return out;
    }
}
