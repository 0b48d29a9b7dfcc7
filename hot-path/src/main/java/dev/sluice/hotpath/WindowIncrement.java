package dev.sluice.hotpath;

import dev.sluice.config.WindowSpec;
import dev.sluice.warehouse.ColumnTypes;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * Incremental maintenance of tumbling and sliding windows: the events a batch adds to the counts
 * are folded into the windows they belong to, instead of recomputing those windows from the sink
 * (which costs a scan of every event of a window per batch: quadratic in a window's size). Per
 * batch: one SELECT of the touched windows, one batched UPDATE, one batched INSERT.
 *
 * <p>Per window ({@link WindowState}): count and sum add up, min/max take the extreme, avg keeps
 * its non-null count and sum in the helper columns {@code _n_<measure>} and {@code _sum_<measure>}
 * (a recomputation writes them too), so that avg = sum / n exactly as SQL's AVG. Sums of integer columns are kept as BIGINT (exact);
 * of floating columns as DOUBLE (rounding may differ from a recomputation in the last bits). The
 * caller holds the window table's lock and passes only events that were not counted before.
 * Stateless apart from the spec; thread-safe.
 */
final class WindowIncrement {

    private final WindowSpec window;
    private final WindowTable windowTable;
    private final Table<?> table;

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

    /** Folds {@code events} (each counted for the first time, its group without nulls) into their windows. */
    void add(DSLContext tx, List<EventDecoder.Event> events, Function<EventDecoder.Event, List<Object>> groupOf) {
        Map<List<Object>, WindowState> delta = new LinkedHashMap<>();
        for (EventDecoder.Event e : events) {
            List<Object> group = groupOf.apply(e);
            for (long start : starts(e.eventTime().getEpochSecond())) {
                List<Object> key = new ArrayList<>(group);
                key.add(start);
                delta.computeIfAbsent(key, k -> new WindowState(window)).add(e.values());
            }
        }
        if (delta.isEmpty()) {
            return;
        }
        Map<List<Object>, WindowState> existing = read(tx, delta);
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        List<Field<?>> measureFields = measureFields();
        List<Object[]> updates = new ArrayList<>();
        List<Object[]> inserts = new ArrayList<>();
        for (Map.Entry<List<Object>, WindowState> d : delta.entrySet()) {
            WindowState s = existing.get(d.getKey());
            boolean update = s != null;
            if (s == null) {
                s = new WindowState(window);
            }
            s.add(d.getValue());
            List<Object> values = new ArrayList<>(s.measureValues());
            values.add(now);
            List<Object> key = d.getKey();
            long start = (Long) key.get(key.size() - 1);
            if (update) {
                values.addAll(key);
                updates.add(values.toArray());
            } else {
                List<Object> row = new ArrayList<>(key.subList(0, key.size() - 1));
                row.add(start);
                row.add(start + window.size().toSeconds());
                row.add(LocalDateTime.ofEpochSecond(start, 0, ZoneOffset.UTC));
                row.add(LocalDateTime.ofEpochSecond(start + window.size().toSeconds(), 0, ZoneOffset.UTC));
                row.addAll(values);
                inserts.add(row.toArray());
            }
        }
        if (!updates.isEmpty()) {
            var set = new LinkedHashMap<Field<?>, Field<?>>();
            measureFields.forEach(f -> set.put(f, DSL.val(null, f.getDataType())));
            set.put(DSL.field(DSL.name("_updated_at")), DSL.val(null, SQLDataType.TIMESTAMPWITHTIMEZONE));
            List<Condition> where = new ArrayList<>();
            for (String g : window.groupBy()) {
                where.add(DSL.field(DSL.name(g)).eq(DSL.val(null, ColumnTypes.of(windowTable.column(g)))));
            }
            where.add(DSL.field(DSL.name("window_start_s")).eq(DSL.val(null, SQLDataType.BIGINT)));
            var batch = tx.batch(tx.update(table).set(set).where(where));
            for (Object[] u : updates) {
                batch = batch.bind(u);
            }
            batch.execute();
        }
        if (!inserts.isEmpty()) {
            List<Field<?>> target = new ArrayList<>();
            for (String g : window.groupBy()) {
                target.add(DSL.field(DSL.name(g), ColumnTypes.of(windowTable.column(g))));
            }
            target.add(DSL.field(DSL.name("window_start_s"), SQLDataType.BIGINT));
            target.add(DSL.field(DSL.name("window_end_s"), SQLDataType.BIGINT));
            target.add(DSL.field(DSL.name("window_start"), SQLDataType.LOCALDATETIME(0)));
            target.add(DSL.field(DSL.name("window_end"), SQLDataType.LOCALDATETIME(0)));
            target.addAll(measureFields);
            target.add(DSL.field(DSL.name("_updated_at"), SQLDataType.TIMESTAMPWITHTIMEZONE));
            List<Field<?>> placeholders = new ArrayList<>();
            target.forEach(f -> placeholders.add(DSL.val(null, f.getDataType())));
            var batch = tx.batch(tx.insertInto(table, target).values(placeholders));
            for (Object[] row : inserts) {
                batch = batch.bind(row);
            }
            batch.execute();
        }
    }

    /** The measure columns and helper columns, in the order {@link WindowState#measureValues} gives them. */
    private List<Field<?>> measureFields() {
        List<Field<?>> out = new ArrayList<>();
        window.measures().forEach((name, m) -> out.add(DSL.field(DSL.name(name), windowTable.type(m))));
        WindowTable.helpers(window).forEach((name, type) -> out.add(DSL.field(DSL.name(name), type)));
        return out;
    }

    /** The stored state of the windows of {@code keys} (group values + start), those that exist. */
    private Map<List<Object>, WindowState> read(DSLContext tx, Map<List<Object>, WindowState> keys) {
        Map<List<Object>, List<Long>> startsByGroup = new LinkedHashMap<>();
        keys.keySet().forEach(k -> startsByGroup.computeIfAbsent(k.subList(0, k.size() - 1), g -> new ArrayList<>()).add((Long) k.get(k.size() - 1)));
        List<Condition> any = new ArrayList<>();
        startsByGroup.forEach((g, starts) -> {
            List<Condition> c = new ArrayList<>();
            for (int i = 0; i < window.groupBy().size(); i++) {
                c.add(DSL.field(DSL.name(window.groupBy().get(i))).eq(g.get(i)));
            }
            c.add(DSL.field(DSL.name("window_start_s"), Long.class).in(starts));
            any.add(DSL.and(c));
        });
        List<Field<?>> select = new ArrayList<>();
        for (String g : window.groupBy()) {
            select.add(DSL.field(DSL.name(g), ColumnTypes.of(windowTable.column(g))));
        }
        select.add(DSL.field(DSL.name("window_start_s"), Long.class));
        select.addAll(measureFields());
        Map<List<Object>, WindowState> out = new HashMap<>();
        int groups = window.groupBy().size();
        for (Record r : tx.select(select).from(table).where(DSL.or(any)).fetch()) {
            List<Object> key = new ArrayList<>();
            for (int i = 0; i <= groups; i++) {
                key.add(r.get(i));
            }
            WindowState s = WindowState.of(window, r, groups + 1);
            out.put(key, s);
        }
        return out;
    }
}
