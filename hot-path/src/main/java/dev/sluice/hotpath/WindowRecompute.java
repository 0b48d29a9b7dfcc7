package dev.sluice.hotpath;

import dev.sluice.config.ColumnSpec;
import dev.sluice.config.ContractSpec;
import dev.sluice.config.WindowSpec;
import dev.sluice.warehouse.ColumnTypes;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jooq.AggregateFunction;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.DatePart;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Row1;
import org.jooq.SelectField;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * The windows of one live aggregate recomputed set-based from the sink, for the groups and time
 * span a batch touched, in the batch's transaction: the windows there are deleted and written again
 * by one INSERT … SELECT over the sink's events that count (not {@code _late}; one per content when
 * {@code distinct_by_content}). Tumbling and sliding windows by exploding each event into the
 * windows it belongs to; sessions by gaps between consecutive events of a group (a session ends at
 * its last event + gap), each group's range widened until none of its sessions crosses its ends.
 * Event times count to the whole second ({@code _event_epoch_s}). Takes the table's lock
 * ({@link WindowTable#lock}). Stateless besides the spec; thread-safe.
 */
final class WindowRecompute {

    private static final LocalDateTime EPOCH = LocalDateTime.of(1970, 1, 1, 0, 0);
    private static final Field<Long> EPOCH_S = DSL.field(DSL.name("_event_epoch_s"), Long.class);
    private static final Field<Long> START_S = DSL.field(DSL.name("window_start_s"), Long.class);
    private static final Field<Long> END_S = DSL.field(DSL.name("window_end_s"), Long.class);

    private final WindowSpec window;
    private final ContractSpec contract;
    private final WindowTable table;
    private final Table<?> sink;

    /** @param sink the sink table ({@link SinkTable#table}) */
    WindowRecompute(WindowSpec window, ContractSpec contract, WindowTable table, Table<?> sink) {
        this.window = window;
        this.contract = contract;
        this.table = table;
        this.sink = sink;
    }

    /**
     * Recomputes the windows of {@code groups} (each a list of group values, in {@code group_by}
     * order) that events between {@code minS} and {@code maxS} (epoch seconds) belong to.
     */
    void update(DSLContext tx, Collection<List<Object>> touched, long minS, long maxS) {
        // a NULL group value (a nullable group column) has no window: the event is in the sink only
        List<List<Object>> groups = touched.stream().filter(g -> g.stream().noneMatch(Objects::isNull)).toList();
        if (groups.isEmpty()) {
            return;
        }
        // one batch at a time rewrites this table's windows (held to the end of the transaction)
        table.lock(tx);
        Condition ofGroups = DSL.or(groups.stream().map(g -> groupIs(g, null)).toList());
        switch (window.kind()) {
            case TUMBLING -> {
                long size = window.size().toSeconds();
                long lo = Math.floorDiv(minS, size) * size;
                long hi = Math.floorDiv(maxS, size) * size + size;
                Field<Long> start = DSL.field("{0} / {1} * {1}", Long.class, DSL.field(DSL.name("e", "_event_epoch_s")), DSL.inline(size));
                Table<?> bucketed = DSL.select(DSL.asterisk(), start.as("_w")).from(events(ofGroups, lo, hi).as("e")).asTable("x");
                replaceExploded(tx, ofGroups, lo, hi, bucketed, size);
            }
            case SLIDING -> {
                long size = window.size().toSeconds();
                long slide = window.slide().toSeconds();
                long lo = (Math.floorDiv(minS - size, slide) + 1) * slide;
                long hi = Math.floorDiv(maxS, slide) * slide + slide;
                int n = (int) (size / slide);
                List<Row1<Integer>> offsets = new ArrayList<>();
                for (int j = 0; j < n; j++) {
                    offsets.add(DSL.row(j));
                }
                Table<?> js = DSL.values(offsets.toArray(Row1[]::new)).as("j", "n");
                Field<Long> start = DSL.field("({0} / {1} - {2}) * {1}", Long.class, DSL.field(DSL.name("e", "_event_epoch_s")),
                        DSL.inline(slide), DSL.field(DSL.name("j", "n")));
                Table<?> exploded = DSL.select(DSL.asterisk(), start.as("_w")).from(events(ofGroups, lo, hi + size).as("e")).crossJoin(js)
                        .asTable("x");
                replaceExploded(tx, ofGroups, lo, hi, exploded, size);
            }
            case SESSION -> sessions(tx, groups, minS, maxS);
        }
    }

    /** The sink's events of the groups in [lo, hi) seconds that count: not too late, one per content when asked. */
    private Table<?> events(Condition ofGroups, long lo, long hi) {
        return events(ofGroups.and(EPOCH_S.ge(lo)).and(EPOCH_S.lt(hi)));
    }

    /** The sink's events matching {@code where} that count: not too late, one per content when asked. */
    private Table<?> events(Condition where) {
        Condition in = where.and(DSL.field(DSL.name("_late"), Boolean.class).isFalse());
        if (!window.distinctByContent()) {
            return DSL.select(DSL.asterisk()).from(sink).where(in).asTable("ev");
        }
        List<SelectField<?>> fields = new ArrayList<>();
        for (ColumnSpec c : contract.columns()) {
            fields.add(DSL.min(DSL.field(DSL.name(c.name()))).as(c.name()));
        }
        fields.add(DSL.min(EPOCH_S).as("_event_epoch_s"));
        return DSL.select(fields).from(sink).where(in).groupBy(DSL.field(DSL.name("_content_hash"))).asTable("ev");
    }

    private Condition groupIs(List<Object> values, String alias) {
        List<Condition> c = new ArrayList<>();
        for (int i = 0; i < window.groupBy().size(); i++) {
            Field<Object> f = alias == null ? DSL.field(DSL.name(window.groupBy().get(i))) : DSL.field(DSL.name(alias, window.groupBy().get(i)));
            c.add(values.get(i) == null ? f.isNull() : f.eq(values.get(i)));
        }
        return DSL.and(c);
    }

    private List<SelectField<?>> measures(String alias) {
        List<SelectField<?>> out = new ArrayList<>();
        for (Map.Entry<String, WindowSpec.Measure> m : window.measures().entrySet()) {
            WindowSpec.Measure v = m.getValue();
            @SuppressWarnings({"unchecked", "rawtypes"})
            Field<Number> col = v.column() == null ? null : (Field) DSL.field(DSL.name(alias, v.column()), ColumnTypes.of(table.column(v.column())));
            AggregateFunction<?> f = switch (v.function()) {
                case "count" -> DSL.count();
                case "sum" -> DSL.sum(col);
                case "avg" -> DSL.avg(col);
                case "min" -> DSL.min(col);
                default -> DSL.max(col);
            };
            out.add(v.function().equals("avg") ? f.cast(SQLDataType.DOUBLE).as(m.getKey()) : f.as(m.getKey()));
        }
        return out;
    }

    private void replaceExploded(DSLContext tx, Condition ofGroups, long lo, long hi, Table<?> exploded, long size) {
        tx.deleteFrom(table.table()).where(ofGroups, DSL.field(DSL.name("window_start_s"), Long.class).ge(lo),
                DSL.field(DSL.name("window_start_s"), Long.class).lt(hi)).execute();
        Field<Long> ws = DSL.field(DSL.name("x", "_w"), Long.class);
        insert(tx, DSL.select(DSL.asterisk()).from(exploded).where(ws.ge(lo), ws.lt(hi)).asTable("x"), ws, ws.plus(DSL.inline(size)), "x");
    }

    /** INSERT … SELECT group, start, end, measures FROM {@code from} GROUP BY group, start. */
    private void insert(DSLContext tx, Table<?> from, Field<Long> start, Field<Long> end, String alias) {
        List<Field<?>> target = new ArrayList<>();
        List<SelectField<?>> select = new ArrayList<>();
        List<Field<?>> groupBy = new ArrayList<>();
        for (String g : window.groupBy()) {
            target.add(DSL.field(DSL.name(g)));
            select.add(DSL.field(DSL.name(alias, g)));
            groupBy.add(DSL.field(DSL.name(alias, g)));
        }
        groupBy.add(start);
        for (String t : List.of("window_start_s", "window_end_s", "window_start", "window_end")) {
            target.add(DSL.field(DSL.name(t)));
        }
        select.add(start);
        select.add(DSL.max(end));
        select.add(DSL.localDateTimeAdd(DSL.inline(EPOCH), start, DatePart.SECOND));
        select.add(DSL.localDateTimeAdd(DSL.inline(EPOCH), DSL.max(end), DatePart.SECOND));
        window.measures().keySet().forEach(m -> target.add(DSL.field(DSL.name(m))));
        select.addAll(measures(alias));
        window.measures().forEach((name, m) -> {
            if (m.function().equals("avg")) {
                Field<Number> col = DSL.field(DSL.name(alias, m.column()), Number.class);
                target.add(DSL.field(DSL.name("_n_" + name)));
                target.add(DSL.field(DSL.name("_sum_" + name)));
                select.add(DSL.count(col));
                select.add(DSL.sum(col.cast(SQLDataType.DOUBLE)));
            }
        });
        target.add(DSL.field(DSL.name("_updated_at")));
        select.add(DSL.val(OffsetDateTime.now(ZoneOffset.UTC)));
        tx.insertInto(table.table(), target).select(DSL.select(select).from(from).groupBy(groupBy)).execute();
    }

    /**
     * For each of {@code groups}, the span [lo, hi] (epoch seconds, both inclusive) that holds every
     * session of the group overlapping [{@code lo}, {@code hi}]: widened step by step until none of
     * the group's sessions crosses its ends.
     */
    private Map<List<Object>, long[]> sessionSpans(DSLContext tx, List<List<Object>> groups, long lo, long hi) {
        Map<List<Object>, long[]> spans = new LinkedHashMap<>();
        groups.forEach(g -> spans.put(g, new long[] {lo, hi}));
        List<Field<?>> groupFields = new ArrayList<>();
        window.groupBy().forEach(g -> groupFields.add(DSL.field(DSL.name(g), ColumnTypes.of(table.column(g)))));
        Set<List<Object>> open = new HashSet<>(spans.keySet());
        while (!open.isEmpty()) {
            Condition crossing = DSL.or(open.stream()
                    .map(g -> groupIs(g, null).and(START_S.le(spans.get(g)[1])).and(END_S.ge(spans.get(g)[0]))).toList());
            Set<List<Object>> widened = new HashSet<>();
            for (Record r : tx.select(groupFields).select(DSL.min(START_S), DSL.max(END_S)).from(table.table()).where(crossing).groupBy(groupFields)
                    .fetch()) {
                List<Object> g = new ArrayList<>();
                for (int i = 0; i < groupFields.size(); i++) {
                    g.add(r.get(i)); // typed as the decoded events' values (ColumnTypes), so equal groups are equal lists
                }
                long[] span = spans.get(g);
                if (span == null) {
                    throw new IllegalStateException("sessions of " + window.table() + ": group " + g + " read back is none of the batch's "
                            + groups);
                }
                long newLo = Math.min(span[0], r.get(groupFields.size(), Long.class));
                long newHi = Math.max(span[1], r.get(groupFields.size() + 1, Long.class));
                if (newLo != span[0] || newHi != span[1]) {
                    span[0] = newLo;
                    span[1] = newHi;
                    widened.add(g);
                }
            }
            open = widened;
        }
        return spans;
    }

    /**
     * Sessions: per group, the existing sessions that overlap the batch's span widened by the gap
     * are replaced by the sessions recomputed from the group's events of that whole range. Each
     * group's range is widened on its own until none of the group's sessions crosses its ends: a
     * group's sessions are disjoint (the next starts at or after the previous one's end), so this
     * takes a step or two, while one range shared by all groups would chain through the overlapping
     * sessions of other groups without end.
     */
    private void sessions(DSLContext tx, List<List<Object>> groups, long minS, long maxS) {
        long gap = window.gap().toSeconds();
        Map<List<Object>, long[]> spans = sessionSpans(tx, groups, minS - gap, maxS + gap);
        Condition sessionsInRange = DSL.or(spans.entrySet().stream()
                .map(g -> groupIs(g.getKey(), null).and(START_S.le(g.getValue()[1])).and(END_S.ge(g.getValue()[0]))).toList());
        tx.deleteFrom(table.table()).where(sessionsInRange).execute();
        Condition eventsInRange = DSL.or(spans.entrySet().stream()
                .map(g -> groupIs(g.getKey(), null).and(EPOCH_S.between(g.getValue()[0], g.getValue()[1]))).toList());
        List<Field<?>> partition = new ArrayList<>();
        window.groupBy().forEach(g -> partition.add(DSL.field(DSL.name("ev", g))));
        Field<Long> t = DSL.field(DSL.name("ev", "_event_epoch_s"), Long.class);
        Field<Integer> fresh = DSL.when(t.minus(DSL.lag(t).over(DSL.partitionBy(partition).orderBy(t))).lt(DSL.inline(gap)), DSL.inline(0))
                .otherwise(DSL.inline(1));
        Table<?> marked = DSL.select(DSL.asterisk(), fresh.as("_new")).from(events(eventsInRange).as("ev")).asTable("m");
        List<Field<?>> partitionM = new ArrayList<>();
        window.groupBy().forEach(g -> partitionM.add(DSL.field(DSL.name("m", g))));
        Field<Long> tm = DSL.field(DSL.name("m", "_event_epoch_s"), Long.class);
        Field<BigDecimal> sid = DSL.sum(DSL.field(DSL.name("m", "_new"), Integer.class))
                .over(DSL.partitionBy(partitionM).orderBy(tm).rowsUnboundedPreceding());
        Table<?> sessions = DSL.select(DSL.asterisk(), sid.as("_sid")).from(marked).asTable("x");
        Field<Long> start = DSL.min(DSL.field(DSL.name("x", "_event_epoch_s"), Long.class));
        // grouped by session id: start = the first event, end = the last event + gap
        List<Field<?>> target = new ArrayList<>();
        List<SelectField<?>> select = new ArrayList<>();
        List<Field<?>> groupBy = new ArrayList<>();
        for (String g : window.groupBy()) {
            target.add(DSL.field(DSL.name(g)));
            select.add(DSL.field(DSL.name("x", g)));
            groupBy.add(DSL.field(DSL.name("x", g)));
        }
        groupBy.add(DSL.field(DSL.name("x", "_sid")));
        Field<Long> end = DSL.max(DSL.field(DSL.name("x", "_event_epoch_s"), Long.class)).plus(DSL.inline(gap));
        for (String n : List.of("window_start_s", "window_end_s", "window_start", "window_end")) {
            target.add(DSL.field(DSL.name(n)));
        }
        select.add(start);
        select.add(end);
        select.add(DSL.localDateTimeAdd(DSL.inline(EPOCH), start, DatePart.SECOND));
        select.add(DSL.localDateTimeAdd(DSL.inline(EPOCH), end, DatePart.SECOND));
        window.measures().keySet().forEach(m -> target.add(DSL.field(DSL.name(m))));
        select.addAll(measures("x"));
        target.add(DSL.field(DSL.name("_updated_at")));
        select.add(DSL.val(OffsetDateTime.now(ZoneOffset.UTC)));
        tx.insertInto(table.table(), target).select(DSL.select(select).from(sessions).groupBy(groupBy)).execute();
    }
}
