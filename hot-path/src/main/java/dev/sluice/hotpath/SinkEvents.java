package dev.sluice.hotpath;

import static dev.sluice.hotpath.SinkTable.EVENT_ID;
import static dev.sluice.hotpath.SinkTable.LATE;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * The events of the sink table by event id ({@link SinkTable}): which of a batch's are there
 * already, which of those are marked too late, and the writing of new ones, each id once (the
 * primary key ignores an id already stored). Every method runs in the caller's transaction
 * {@code tx}. A lookup by ids binds them as one array on PostgreSQL, a semi-join, else lists them
 * ({@link #in}); new events go as one array statement on PostgreSQL ({@link PostgresSinkInsert}), as one JDBC batch
 * of single-row inserts on H2. Stateless besides the
 * table; thread-safe.
 */
final class SinkEvents {

    private final SinkTable sink;
    private final PostgresSinkInsert bulk;

    SinkEvents(SinkTable sink) {
        this.sink = sink;
        this.bulk = new PostgresSinkInsert(sink);
    }

    /** The ids of {@code events} already in the sink, in one query (none for no events). */
    Set<String> known(DSLContext tx, List<HotSink.Consumed> events) {
        if (events.isEmpty()) {
            return Set.of();
        }
        return new HashSet<>(tx.select(EVENT_ID).from(sink.table()).where(idIn(tx, ids(events))).fetch(EVENT_ID));
    }

    /** For each of {@code events} (not empty) already in the sink, its id and whether it is marked {@code _late}, in one query. */
    Map<String, Boolean> lateByKnownId(DSLContext tx, List<HotSink.Consumed> events) {
        Map<String, Boolean> stored = new HashMap<>();
        tx.select(EVENT_ID, LATE).from(sink.table()).where(idIn(tx, ids(events)))
                .forEach(r -> stored.put(r.value1(), r.value2()));
        return stored;
    }

    /** Clears {@code _late} of the events {@code ids} (not empty): the windows count them from now on. */
    void markOnTime(DSLContext tx, List<String> ids) {
        tx.update(sink.table()).set(LATE, false).where(idIn(tx, ids)).execute();
    }

    /**
     * Writes {@code events} (not empty) to the sink, those in {@code lateIds} marked {@code _late},
     * and returns the ids actually written; an id already there is ignored, and of events sharing an
     * id only the first is written. On PostgreSQL by one array statement ({@link PostgresSinkInsert})
     * unless a value has no exact text form; else one prepared statement as one JDBC batch (a multi-row MERGE makes
     * H2's parser recurse per row), with typed placeholders so that the database knows each bind
     * value's type. Both write the same values ({@code SinkRoundTripIT}).
     */
    Set<String> insert(DSLContext tx, List<HotSink.Consumed> events, Set<String> lateIds) {
        return insert(tx, events, lateIds, false);
    }

    /**
     * As {@link #insert(DSLContext, List, Set)}, for {@code events} that may hold ids already in the
     * sink (a redelivery, a replay): none of those is in the result. On PostgreSQL's array path the
     * {@code INSERT … ON CONFLICT DO NOTHING RETURNING} says so by itself; on the batch path, whose
     * counts a driver may give as {@code SUCCESS_NO_INFO} (pgjdbc with {@code reWriteBatchedInserts},
     * H2's emulated upsert), the ids already stored are looked up first ({@link #known}) and left out.
     * (Before 2026-12-04 every batch looked them up: 7.6 % of PostgreSQL's statement time in
     * {@code --only hotsink}, for ids the array path's insert reports anyway.)
     */
    Set<String> insertNew(DSLContext tx, List<HotSink.Consumed> events, Set<String> lateIds) {
        return insert(tx, events, lateIds, true);
    }

    private Set<String> insert(DSLContext tx, List<HotSink.Consumed> events, Set<String> lateIds, boolean mayBeKnown) {
        // microseconds, as both databases keep it, so that either path stores the same instant
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
        List<HotSink.Consumed> once = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        events.stream().filter(c -> seen.add(c.event().id())).forEach(once::add);
        List<List<Object>> rows = rows(once, now, lateIds);
        if (tx.dialect().family() == SQLDialect.POSTGRES && PostgresSinkInsert.encodable(rows)) {
            return bulk.insert(tx, rows);
        }
        if (mayBeKnown) {
            Set<String> known = known(tx, once);
            if (!known.isEmpty()) {
                once.removeIf(c -> known.contains(c.event().id()));
                rows = rows(once, now, lateIds);
            }
        }
        return once.isEmpty() ? Set.of() : insertBatch(tx, once, rows);
    }

    private static List<List<Object>> rows(List<HotSink.Consumed> once, OffsetDateTime now, Set<String> lateIds) {
        List<List<Object>> rows = new ArrayList<>(once.size());
        once.forEach(c -> rows.add(SinkTable.row(c, now, lateIds.contains(c.event().id()))));
        return rows;
    }

    /** {@code rows} of the events {@code once} as one JDBC batch; the ids written. */
    private Set<String> insertBatch(DSLContext tx, List<HotSink.Consumed> once, List<List<Object>> rows) {
        List<Field<?>> fields = sink.fields();
        List<Field<?>> placeholders = new ArrayList<>();
        fields.forEach(f -> placeholders.add(DSL.val(null, f.getDataType())));
        var batch = tx.batch(tx.insertInto(sink.table(), fields).values(placeholders).onConflict(sink.qualifiedEventId()).doNothing());
        for (List<Object> row : rows) {
            batch = batch.bind(row.toArray());
        }
        int[] counts = batch.execute();
        Set<String> inserted = new HashSet<>();
        for (int i = 0; i < once.size(); i++) {
            // an id another writer stored meanwhile is not counted twice (JDBC: 0 rows; SUCCESS_NO_INFO: taken as written)
            if (i >= counts.length || counts[i] != 0) {
                inserted.add(once.get(i).event().id());
            }
        }
        return inserted;
    }

    /**
     * {@code _event_id} is one of {@code ids}, as {@link #in} builds it.
     */
    static Condition idIn(DSLContext tx, Collection<String> ids) {
        return in(tx, EVENT_ID, ids);
    }

    /**
     * {@code field} is one of {@code values}: on PostgreSQL a semi-join with the values bound as one
     * array ({@code field IN (SELECT unnest(?::varchar[]))}), else {@code IN (…)} with a literal
     * each. Why not {@code IN (…)} or {@code = ANY(?)} on PostgreSQL: both are one
     * {@code ScalarArrayOpExpr}, which the planner, without statistics on a sink filling faster
     * than autovacuum analyzes it, put as a filter on a sequential scan, comparing every row with
     * every value (measured, HotSink alone, 500-event batches on a sink of 30,000 events: 1.2 s per
     * content lookup, the sink at 1,562 events/s); a semi-join is a hash join over one scan, or an
     * index probe per value, whatever the statistics.
     */
    static Condition in(DSLContext tx, Field<String> field, Collection<String> values) {
        if (tx.dialect().family() == SQLDialect.POSTGRES) {
            return field.in(DSL.select(DSL.field("unnest({0})", String.class, DSL.val(values.toArray(String[]::new), SQLDataType.VARCHAR.array()))));
        }
        // literals, not bind values: H2 checks each row an index lookup finds against a constant list by a hash set, but
        // against CAST(? AS VARCHAR)s one by one (a batch's 2,000 contents, read back in its own transaction: 62–168 ms
        // per lookup bound, 20–36 ms inlined)
        return field.in(values.stream().map(DSL::inline).toList());
    }

    private static List<String> ids(List<HotSink.Consumed> events) {
        return events.stream().map(c -> c.event().id()).toList();
    }
}
