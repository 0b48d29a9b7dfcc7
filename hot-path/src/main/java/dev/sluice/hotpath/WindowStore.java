package dev.sluice.hotpath;

import dev.sluice.config.ContractSpec;
import dev.sluice.config.WindowSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.SQLDialect;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * The windows of one live aggregate ({@link WindowSpec}), kept in step with the sink in the batch's
 * transaction, so that a redelivered or replayed batch, or a late event within the allowed lateness,
 * leaves exactly what one pass over all events would: tumbling and sliding windows fold in the
 * events counted for the first time ({@link WindowIncrement}); sessions are recomputed from the sink
 * for the groups and time span a batch touched ({@link WindowRecompute}). Events marked too late
 * ({@code _late}) are left out. The table and its columns: {@link WindowTable}; window bounds are
 * timestamps, UTC, end exclusive (a session ends at its last event + gap). Event times count to the
 * whole second (floor, the sink's {@code _event_epoch_s}): window bounds are whole seconds anyway,
 * and a session gap compares whole seconds (events 1,799.4 s apart may be 1,800 whole seconds
 * apart). An event whose group value is NULL is in no window.
 *
 * <p>Consumers of one group take the table's row of {@code sluice.hot_window_lock} before they
 * change its windows, held to the commit, where two batches at once could otherwise count wrong:
 * <ul>
 *   <li>sessions: a recomputation reads the sink and rewrites whole windows;</li>
 *   <li>{@code distinct_by_content} on H2: a batch asks the sink which contents are counted
 *       already, and would not see another batch's uncommitted events of the same content (on
 *       PostgreSQL a batch claims its contents instead, {@link WindowContents}, and takes no lock);</li>
 *   <li>any window on H2, whose {@code MERGE} is not atomic against a concurrent insert of the
 *       same key.</li>
 * </ul>
 * A tumbling or sliding window on PostgreSQL takes no lock: its upsert
 * ({@code INSERT … ON CONFLICT DO UPDATE}) adds the batch's delta to the newest committed row,
 * waiting on a concurrent writer's row lock, so two batches adding to one window add up; its rows
 * are upserted in key order, so two batches never wait on each other's rows in a cycle.
 * Thread-safe.
 */
final class WindowStore {

    private final WindowSpec window;
    private final WindowTable table;
    private final WindowIncrement increment;
    private final WindowRecompute recompute;
    private final WindowContents contents;
    private final Table<?> sink;

    /** @param sink the sink table ({@link SinkTable#table}) */
    WindowStore(WindowSpec window, ContractSpec contract, Table<?> sink) {
        this.window = window;
        this.table = new WindowTable(window, contract);
        this.increment = new WindowIncrement(window, table);
        this.recompute = new WindowRecompute(window, contract, table, sink);
        this.contents = new WindowContents(window, sink);
        this.sink = sink;
    }

    /**
     * Creates the window table and its lock row when they do not exist ({@link WindowTable#create}),
     * and on PostgreSQL the table of the contents a {@code distinct_by_content} tumbling or sliding
     * window has counted ({@link WindowContents}).
     */
    void create(DSLContext dsl) {
        table.create(dsl);
        if (claimsContents(dsl)) {
            contents.create(dsl);
        }
    }

    /** Whether contents are claimed ({@link WindowContents}) rather than looked up under the lock. */
    private boolean claimsContents(DSLContext dsl) {
        return window.distinctByContent() && window.kind() != WindowSpec.Kind.SESSION && dsl.family() == SQLDialect.POSTGRES;
    }

    /**
     * Counts {@code counted} (events of the sink counted by the windows from now on, not before):
     * tumbling and sliding windows incrementally ({@link WindowIncrement}), exact duplicates of an
     * event already counted left out when {@code distinct_by_content}; sessions recomputed for the
     * groups and span the events touch. Takes the table's lock where it is needed (above).
     */
    void add(DSLContext tx, List<EventDecoder.Event> counted) {
        List<EventDecoder.Event> grouped = counted.stream().filter(e -> groupOf(e).stream().noneMatch(Objects::isNull)).toList();
        if (grouped.isEmpty()) {
            return;
        }
        if (window.kind() == WindowSpec.Kind.SESSION) {
            long minS = grouped.stream().mapToLong(e -> e.eventTime().getEpochSecond()).min().orElseThrow();
            long maxS = grouped.stream().mapToLong(e -> e.eventTime().getEpochSecond()).max().orElseThrow();
            recompute.update(tx, new LinkedHashSet<>(grouped.stream().map(this::groupOf).toList()), minS, maxS);
            return;
        }
        boolean claims = claimsContents(tx);
        if (!claims && (window.distinctByContent() || tx.dialect() != SQLDialect.POSTGRES)) {
            table.lock(tx);
        }
        List<EventDecoder.Event> fold = grouped;
        if (window.distinctByContent()) {
            Set<String> fresh = claims ? contents.claim(tx, grouped.stream().map(EventDecoder.Event::contentHash).toList()) : null;
            Set<String> seen = claims ? new HashSet<>() : alreadyCounted(tx, counted);
            fold = new ArrayList<>();
            for (EventDecoder.Event e : grouped) {
                if ((fresh == null || fresh.contains(e.contentHash())) && seen.add(e.contentHash())) {
                    fold.add(e); // the first of its content
                }
            }
        }
        increment.add(tx, fold, this::groupOf);
    }

    /**
     * The content hashes among {@code counted} that events of the sink other than these already carry,
     * counted (not late). The sink's events of those hashes are read with their ids and the batch's
     * own left out here: a {@code NOT (_event_id = ANY(…))} in the query compares each row with every
     * id of the batch (quadratic in the batch's size).
     */
    private Set<String> alreadyCounted(DSLContext tx, List<EventDecoder.Event> counted) {
        Field<String> hash = DSL.field(DSL.name("_content_hash"), String.class);
        Field<String> id = DSL.field(DSL.name("_event_id"), String.class);
        Set<String> own = new HashSet<>();
        counted.forEach(e -> own.add(e.id()));
        Set<String> out = new HashSet<>();
        tx.select(hash, id).from(sink).where(SinkEvents.in(tx, hash, counted.stream().map(EventDecoder.Event::contentHash).distinct().toList()),
                DSL.field(DSL.name("_late"), Boolean.class).isFalse()).forEach(r -> {
                    if (!own.contains(r.value2())) {
                        out.add(r.value1());
                    }
                });
        return out;
    }

    /** The group values of {@code e}, in {@code group_by} order. */
    List<Object> groupOf(EventDecoder.Event e) {
        List<Object> out = new ArrayList<>();
        window.groupBy().forEach(g -> out.add(e.values().get(g)));
        return out;
    }
}
