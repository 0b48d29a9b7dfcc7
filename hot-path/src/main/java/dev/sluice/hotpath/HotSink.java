package dev.sluice.hotpath;

import dev.sluice.config.ContractSpec;
import dev.sluice.config.HotPathSpec;
import dev.sluice.core.FaultPoints;
import dev.sluice.core.RunId;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

/**
 * Where the hot path lands what it consumed, in one database transaction per poll batch:
 * <ul>
 *   <li>every valid event, once, in the sink table ({@code hot_path.sink}, {@link SinkTable}): the
 *       contract's columns plus {@code _event_id} (the record key, primary key: a redelivered event
 *       is ignored, {@link SinkEvents}), {@code _content_hash}, {@code _event_time}, {@code _source}
 *       ({@code kafka:<topic>/<partition>}), {@code _source_pos} (the offset) and
 *       {@code _ingested_at};</li>
 *   <li>every poison record, once, in {@code sluice.quarantine} with its raw key and value
 *       ({@link HotQuarantine}), and every event too late for the watermark that the batch writes
 *       to the sink ({@link Lateness});</li>
 *   <li>the next offset of every partition the batch read, in {@code sluice.hot_offset}, only ever
 *       moving forward, with the partition's health after the batch: the consumer's lag, the events
 *       stored so far, the batch's latency and the events/s ({@link HotOffsets});</li>
 *   <li>the windows of the events it counts ({@link LiveWindows}), merged before the offsets are
 *       stored.</li>
 * </ul>
 * On PostgreSQL the events go by one statement over the batch's columns as arrays
 * ({@link PostgresSinkInsert}), on H2 as a JDBC batch of inserts ({@link SinkEvents}); tumbling and
 * sliding windows by one upsert of the batch's window rows on PostgreSQL, a batch of {@code MERGE}s
 * on H2 ({@link WindowIncrement}).
 * The caller's transaction makes these one unit: either all of a batch is in the database with
 * its offsets, or none of it. Thread-safe (stateless besides the table names).
 */
public final class HotSink {

    private final HotPathSpec hot;
    private final SinkTable sinkTable;
    private final SinkEvents sinkEvents;
    private final Lateness lateness;
    private final HotQuarantine quarantine;
    private final HotOffsets offsets;
    private final LiveWindows windows;

    /**
     * A sink; creates nothing until {@link #create}.
     *
     * @param pipeline the pipeline's name, recorded with quarantined records
     * @param hot the pipeline's hot path: sink table, topic, consumer group, allowed lateness, windows
     * @param contract the event contract: the sink table's first columns, in its order
     */
    public HotSink(String pipeline, HotPathSpec hot, ContractSpec contract) {
        this.hot = hot;
        this.sinkTable = new SinkTable(hot.sink(), contract);
        this.sinkEvents = new SinkEvents(sinkTable);
        this.lateness = new Lateness(hot);
        this.quarantine = new HotQuarantine(pipeline, hot);
        this.offsets = new HotOffsets(hot);
        this.windows = new LiveWindows(hot, contract, sinkTable);
    }

    /** One consumed record: where it was read. */
    public record Position(String topic, int partition, long offset) {
        String source() {
            return "kafka:" + topic + "/" + partition;
        }
    }

    /** A valid event and where it was read. */
    public record Consumed(EventDecoder.Event event, Position at) {
    }

    /** A poison record: its raw key and value, why, and where it was read. */
    public record Poison(byte @Nullable [] key, byte @Nullable [] value, EventDecoder.Violation violation, Position at) {
    }

    /**
     * Creates the sink table ({@link SinkTable}) and then each window table with its lock row, those
     * that do not exist; a table that exists is left as it is (a window table gains missing helper
     * columns). Idempotent, and safe when consumers start together: creations take turns, within a
     * JVM on a lock and on PostgreSQL across processes on a transaction-scoped advisory lock
     * ({@code pg_advisory_xact_lock}), the creation then one transaction. PostgreSQL's
     * {@code CREATE … IF NOT EXISTS} is not atomic across sessions: two consumers creating the same
     * table at once failed one ("duplicate key value violates unique constraint
     * pg_type_typname_nsp_index", {@code HotSinkCreateIT}). The one transaction holds the locks its
     * statements take until it commits: a {@code CREATE INDEX IF NOT EXISTS} on an existing sink
     * (SHARE) and a window table's {@code ADD COLUMN IF NOT EXISTS} (ACCESS EXCLUSIVE), normally for
     * milliseconds, but for the whole seeding of a new contents table from the sink when one is made
     * (the first start after an upgrade, with the other consumers stopped as hot-path.md says).
     *
     * @throws DataAccessException when a statement fails
     */
    public void create(DSLContext dsl) {
        synchronized (CREATING) {
            if (dsl.family() == SQLDialect.POSTGRES) {
                dsl.transaction(c -> {
                    c.dsl().resultQuery("SELECT pg_advisory_xact_lock({0})", DSL.inline(CREATE_LOCK_KEY)).fetch();
                    sinkTable.create(c.dsl());
                    windows.create(c.dsl());
                });
            } else {
                sinkTable.create(dsl);
                windows.create(dsl);
            }
        }
    }

    /** The JVM's lock for {@link #create}. */
    private static final Object CREATING = new Object();

    /** The advisory lock key of {@link #create} on PostgreSQL (a constant: the bytes of "sluiceHP"). */
    static final long CREATE_LOCK_KEY = 0x736c756963654850L;

    /**
     * Applies one batch in {@code tx} (the caller's transaction). Until every one of the topic's
     * {@code topicPartitions} partitions has delivered an event the watermark holds back (a
     * partition not read yet may still bring the oldest events), so nothing is judged late.
     *
     * In this order: the new events to the sink, the poison and too-late records to the quarantine
     * (fault point {@code hot-batch:in-transaction}), the windows merged (fault point
     * {@code hot-batch:windows-merged}), the offsets stored (fault point {@code hot-batch:offsets-stored}).
     *
     * @param tx the caller's transaction; the batch is written when it commits, and none of it when it
     *     rolls back
     * @param events the batch's valid events, in poll order; those already in the sink are ignored
     * @param poison the batch's poison records, in poll order; those quarantined before are ignored
     * @param consumerRun the consumer's run id, recorded with quarantined records
     * @param read for each partition of {@code hot_path.topic} the batch read, the offset after its
     *     last record, the consumer's lag after the poll and the records' timestamps
     * @param topicPartitions how many partitions the topic has
     * @throws DataAccessException when a statement fails; the caller rolls back
     */
    public void apply(DSLContext tx, List<Consumed> events, List<Poison> poison, Map<Integer, PartitionRead> read, RunId consumerRun,
            int topicPartitions) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        Map<Integer, HotOffsets.Stored> before = offsets.read(tx, hot.topic());
        long watermark = lateness.watermark(before, topicPartitions);
        // events already in the sink (a redelivery, a replay) change nothing: not written, so neither
        // judged late again nor re-windowed (the insert says which ids it wrote)
        Lateness.Sorted sorted = lateness.sort(events, watermark);
        Set<String> inserted = events.isEmpty() ? Set.of() : sinkEvents.insertNew(tx, events, sorted.lateIds());
        // of events sharing an id (a producer's retry in one poll) the sink keeps the first
        List<Consumed> written = sorted.firsts().stream().filter(c -> inserted.contains(c.event().id())).toList();
        Map<Integer, Integer> storedByPartition = new HashMap<>();
        written.forEach(c -> storedByPartition.merge(c.at().partition(), 1, Integer::sum));
        List<Poison> quarantined = new ArrayList<>(poison);
        sorted.tooLate().stream().filter(t -> inserted.contains(t.id())).forEach(t -> quarantined.add(t.poison()));
        quarantine.add(tx, quarantined, consumerRun, now);
        FaultPoints.reach("hot-batch:in-transaction");
        windows.count(tx, sorted.onTime().stream().filter(c -> inserted.contains(c.event().id())).toList());
        FaultPoints.reach("hot-batch:windows-merged");
        offsets.advance(tx, hot.topic(), read, sorted.newestByPartition(), storedByPartition, before);
        FaultPoints.reach("hot-batch:offsets-stored");
    }

    /**
     * Re-injects events that were quarantined and now pass (a contract fix, or a decision to count
     * late events): a new event is written to the sink, a too-late one already there is counted
     * from now on ({@code _late} cleared); their windows are recomputed. Idempotent.
     *
     * @return how many events the windows now count that they did not
     */
    public int reinject(DSLContext tx, List<Consumed> events) {
        if (events.isEmpty()) {
            return 0;
        }
        Map<String, Boolean> stored = sinkEvents.lateByKnownId(tx, events);
        List<Consumed> fresh = new ArrayList<>();
        List<Consumed> counted = new ArrayList<>();
        List<String> nowOnTime = new ArrayList<>();
        for (Consumed c : events) {
            Boolean wasLate = stored.get(c.event().id());
            if (wasLate == null) {
                fresh.add(c);
            } else if (wasLate) {
                nowOnTime.add(c.event().id());
            } else {
                continue; // already counted
            }
            counted.add(c);
        }
        if (!nowOnTime.isEmpty()) {
            sinkEvents.markOnTime(tx, nowOnTime);
        }
        Set<String> inserted = fresh.isEmpty() ? Set.of() : sinkEvents.insert(tx, fresh, Set.of());
        List<Consumed> nowCounted = counted.stream().filter(c -> nowOnTime.contains(c.event().id()) || inserted.contains(c.event().id())).toList();
        windows.count(tx, nowCounted);
        return nowCounted.size();
    }

    /**
     * Moves the stored positions of {@code topic} back to {@code to} (a replay: the only way they
     * move backwards); a partition with no stored position gets one.
     */
    public void rewind(DSLContext tx, String topic, Map<Integer, Long> to) {
        offsets.rewind(tx, topic, to);
    }

    /**
     * The stored next offset of each partition of {@code topic} for this group, by partition; a
     * partition with no stored position is absent (empty: the warehouse has read nothing of it).
     */
    public Map<Integer, Long> positions(DSLContext dsl, String topic) {
        Map<Integer, Long> out = new HashMap<>();
        offsets.read(dsl, topic).forEach((partition, stored) -> out.put(partition, stored.nextOffset()));
        return out;
    }
}
