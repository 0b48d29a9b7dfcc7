package dev.sluice.hotpath;

import static dev.sluice.hotpath.SinkTable.EVENT_ID;
import static dev.sluice.hotpath.SinkTable.LATE;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * The events of the sink table by event id ({@link SinkTable}): which of a batch's are there
 * already, which of those are marked too late, and the writing of new ones, each id once (the
 * primary key ignores an id already stored). Every method runs in the caller's transaction
 * {@code tx}. Stateless besides the table; thread-safe.
 */
final class SinkEvents {

    private final SinkTable sink;

    SinkEvents(SinkTable sink) {
        this.sink = sink;
    }

    /** The ids of {@code events} already in the sink, in one query (none for no events). */
    Set<String> known(DSLContext tx, List<HotSink.Consumed> events) {
        if (events.isEmpty()) {
            return Set.of();
        }
        return new HashSet<>(tx.select(EVENT_ID).from(sink.table()).where(EVENT_ID.in(ids(events))).fetch(EVENT_ID));
    }

    /** For each of {@code events} (not empty) already in the sink, its id and whether it is marked {@code _late}, in one query. */
    Map<String, Boolean> lateByKnownId(DSLContext tx, List<HotSink.Consumed> events) {
        Map<String, Boolean> stored = new HashMap<>();
        tx.select(EVENT_ID, LATE).from(sink.table()).where(EVENT_ID.in(ids(events)))
                .forEach(r -> stored.put(r.value1(), r.value2()));
        return stored;
    }

    /** Clears {@code _late} of the events {@code ids} (not empty): the windows count them from now on. */
    void markOnTime(DSLContext tx, List<String> ids) {
        tx.update(sink.table()).set(LATE, false).where(EVENT_ID.in(ids)).execute();
    }

    /**
     * Writes {@code events} (not empty) to the sink, those in {@code lateIds} marked {@code _late},
     * and returns the ids actually written: one prepared statement as one JDBC batch (a multi-row
     * MERGE makes H2's parser recurse per row), with typed placeholders so that the database knows
     * each bind value's type; an id already there is ignored.
     */
    Set<String> insert(DSLContext tx, List<HotSink.Consumed> events, Set<String> lateIds) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        List<Field<?>> fields = sink.fields();
        List<Field<?>> placeholders = new ArrayList<>();
        fields.forEach(f -> placeholders.add(DSL.val(null, f.getDataType())));
        var batch = tx.batch(tx.insertInto(sink.table(), fields).values(placeholders).onConflict(sink.qualifiedEventId()).doNothing());
        for (HotSink.Consumed c : events) {
            batch = batch.bind(SinkTable.row(c, now, lateIds.contains(c.event().id())).toArray());
        }
        int[] counts = batch.execute();
        Set<String> inserted = new HashSet<>();
        for (int i = 0; i < events.size(); i++) {
            // an id another writer stored meanwhile is not counted twice (JDBC: 0 rows; SUCCESS_NO_INFO: taken as written)
            if (i >= counts.length || counts[i] != 0) {
                inserted.add(events.get(i).event().id());
            }
        }
        return inserted;
    }

    private static List<String> ids(List<HotSink.Consumed> events) {
        return events.stream().map(c -> c.event().id()).toList();
    }
}
