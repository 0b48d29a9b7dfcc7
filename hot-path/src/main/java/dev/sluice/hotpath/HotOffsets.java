package dev.sluice.hotpath;

import dev.sluice.config.HotPathSpec;
import dev.sluice.warehouse.meta.HotOffsetTable;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

/**
 * {@code sluice.hot_offset} for one consumer group: per topic partition the next offset to read
 * (only ever moving forward, but for a replay's {@link #rewind}), the newest event time (the
 * watermark's input) and the partition's health as of its last batch, all written in the batch's
 * transaction:
 * <ul>
 *   <li>{@code lag_records}: the consumer's lag after the batch, in records (null: not known);</li>
 *   <li>{@code events_stored}: events written to the sink from the partition, cumulative (a
 *       redelivered event is not stored again, so not counted again);</li>
 *   <li>{@code latency_max_ms}, {@code latency_p50_ms}: the batch's greatest and median
 *       event-to-sink latency, ms: the time the offsets are written (the batch's last statement,
 *       after its windows are merged, just before the commit) minus each record's Kafka timestamp
 *       (poison included; records without a timestamp left out; null when none had one). With
 *       {@code CreateTime} topics, as Sluice's own producer writes them (timestamp = event time),
 *       a replay of old events reports their age;</li>
 *   <li>{@code rate_eps}: events stored per second, an exponentially weighted moving average with a
 *       {@value #RATE_TAU_SECONDS} s time constant (the one-minute rate of a Dropwizard meter, the
 *       Unix load average's weighting, for irregular intervals): at each batch
 *       {@code r = r' e^(-dt/tau) + (1 - e^(-dt/tau)) n/dt} with {@code n} the events it stored and
 *       {@code dt} the time since the partition's previous store ({@code updated_at}, the store
 *       time); null until the partition's second store, which starts it from 0, so that it
 *       understates a new steady rate for the first few time constants (63% of it after one, 95%
 *       after three), as any such average does. A reader decays it to its own time with
 *       {@link #rateAt}.</li>
 * </ul>
 * One UPDATE (or, for a partition never stored, one INSERT) per partition of a batch; the values
 * it needs from before come from the one query {@link #read} the batch makes anyway for the
 * watermark. Thread-safe (stateless besides the group). Public for readers of the table: only
 * {@link #rateAt}.
 */
public final class HotOffsets {

    /** The time constant of {@code rate_eps}, in seconds. */
    public static final long RATE_TAU_SECONDS = 60;

    private static final Table<?> OFFSETS = HotOffsetTable.TABLE;
    private static final Field<String> GROUP = DSL.field(DSL.name("group_id"), String.class);
    private static final Field<String> TOPIC = DSL.field(DSL.name("topic"), String.class);
    private static final Field<Integer> PARTITION = DSL.field(DSL.name("kafka_partition"), Integer.class);
    private static final Field<Long> NEXT = DSL.field(DSL.name("next_offset"), Long.class);
    private static final Field<OffsetDateTime> UPDATED = DSL.field(DSL.name("updated_at"), OffsetDateTime.class);
    private static final Field<Long> MAX_EVENT = DSL.field(DSL.name("max_event_s"), Long.class);
    private static final Field<Long> LAG = DSL.field(DSL.name("lag_records"), Long.class);
    private static final Field<Long> STORED = DSL.field(DSL.name("events_stored"), Long.class);
    private static final Field<Long> LATENCY_MAX = DSL.field(DSL.name("latency_max_ms"), Long.class);
    private static final Field<Long> LATENCY_P50 = DSL.field(DSL.name("latency_p50_ms"), Long.class);
    private static final Field<Double> RATE = DSL.field(DSL.name("rate_eps"), Double.class);

    private final String group;

    HotOffsets(HotPathSpec hot) {
        this.group = hot.groupId();
    }

    /**
     * What one partition stored before a batch.
     *
     * @param maxEventS the newest event time it delivered, epoch seconds, or null
     * @param updatedAt its last store
     * @param rateEps its events/s as of that store, or null
     */
    record Stored(long nextOffset, @Nullable Long maxEventS, OffsetDateTime updatedAt, @Nullable Double rateEps) {
    }

    /** Every stored partition of {@code topic}, by partition, in one query. */
    Map<Integer, Stored> read(DSLContext tx, String topic) {
        Map<Integer, Stored> out = new HashMap<>();
        tx.select(PARTITION, NEXT, MAX_EVENT, UPDATED, RATE).from(OFFSETS).where(GROUP.eq(group), TOPIC.eq(topic))
                .forEach(r -> out.put(r.value1(), new Stored(r.value2(), r.value3(), r.value4(), r.value5())));
        return out;
    }

    /**
     * The watermark before a batch, epoch seconds: the least of the partitions' newest event times
     * minus {@code allowedLateness}; {@link Long#MIN_VALUE} until all {@code topicPartitions} have
     * delivered an event.
     */
    static long watermark(Map<Integer, Stored> stored, int topicPartitions, Duration allowedLateness) {
        long least = Long.MAX_VALUE;
        int seen = 0;
        for (Stored s : stored.values()) {
            if (s.maxEventS() != null) {
                least = Math.min(least, s.maxEventS());
                seen++;
            }
        }
        return seen == 0 || seen < topicPartitions ? Long.MIN_VALUE : least - allowedLateness.toSeconds();
    }

    /**
     * Stores each partition's next offset, newest event time and health after a batch, only ever
     * forward: a partition whose stored offset is already at or past the batch's keeps its row
     * untouched (a redelivered batch).
     *
     * @param read what the batch read, by partition of {@code topic}
     * @param newest the newest event time (epoch seconds) of the batch's events, by partition
     * @param storedEvents events the batch wrote to the sink, by partition (absent: none)
     * @param before what {@link #read} returned at the batch's start
     */
    void advance(DSLContext tx, String topic, Map<Integer, PartitionRead> read, Map<Integer, Long> newest,
            Map<Integer, Integer> storedEvents, Map<Integer, Stored> before) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        long nowMs = now.toInstant().toEpochMilli();
        for (Map.Entry<Integer, PartitionRead> e : read.entrySet()) {
            int partition = e.getKey();
            PartitionRead r = e.getValue();
            Long n = newest.get(partition);
            int stored = storedEvents.getOrDefault(partition, 0);
            PartitionRead.Latency latency = r.latencyMs(nowMs);
            Stored was = before.get(partition);
            Double rate = was == null ? null : rate(was.rateEps(), stored, Duration.between(was.updatedAt(), now));
            int moved = tx.update(OFFSETS).set(NEXT, r.nextOffset()).set(UPDATED, now)
                    .set(MAX_EVENT, n == null ? MAX_EVENT : DSL.greatest(DSL.coalesce(MAX_EVENT, DSL.inline(n)), DSL.inline(n)))
                    .set(LAG, r.lagRecords() == null ? LAG : DSL.val(r.lagRecords()))
                    .set(STORED, STORED.plus(stored))
                    .set(LATENCY_MAX, latency.maxMs()).set(LATENCY_P50, latency.p50Ms())
                    .set(RATE, rate)
                    .where(GROUP.eq(group), TOPIC.eq(topic), PARTITION.eq(partition), NEXT.lt(r.nextOffset())).execute();
            if (moved == 0) {
                tx.insertInto(OFFSETS).set(GROUP, group).set(TOPIC, topic).set(PARTITION, partition)
                        .set(NEXT, r.nextOffset()).set(UPDATED, now).set(MAX_EVENT, n)
                        .set(LAG, r.lagRecords()).set(STORED, (long) stored).set(LATENCY_MAX, latency.maxMs())
                        .set(LATENCY_P50, latency.p50Ms())
                        .onConflict(qualified("group_id"), qualified("topic"), qualified("kafka_partition")).doNothing().execute();
            }
        }
    }

    /**
     * The events/s moving average after a store of {@code events} events {@code dt} after the
     * previous store (see the class comment); {@code previous} null counts as 0. A {@code dt}
     * below 1 ms counts as 1 ms.
     */
    static double rate(@Nullable Double previous, long events, Duration dt) {
        double seconds = Math.max(dt.toNanos(), 1_000_000L) / 1e9;
        double keep = Math.exp(-seconds / RATE_TAU_SECONDS);
        return (previous == null ? 0 : previous) * keep + (1 - keep) * events / seconds;
    }

    /**
     * A stored {@code rate_eps} (events/s) decayed by {@code age} without stores (no events: the
     * average goes on with 0 events/s), as read that long after {@code updated_at}; a negative age
     * (clocks apart) counts as 0.
     */
    public static double rateAt(double stored, Duration age) {
        return stored * Math.exp(-Math.max(0, age.toNanos()) / 1e9 / RATE_TAU_SECONDS);
    }

    /**
     * Moves the stored positions of {@code topic} back to {@code to} (a replay: the only way they
     * move backwards); a partition with no stored position gets one. The health columns keep
     * their values.
     */
    void rewind(DSLContext tx, String topic, Map<Integer, Long> to) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        for (Map.Entry<Integer, Long> e : to.entrySet()) {
            int moved = tx.update(OFFSETS).set(NEXT, e.getValue()).set(UPDATED, now)
                    .where(GROUP.eq(group), TOPIC.eq(topic), PARTITION.eq(e.getKey()), NEXT.gt(e.getValue())).execute();
            if (moved == 0 && !tx.fetchExists(OFFSETS, GROUP.eq(group).and(TOPIC.eq(topic)).and(PARTITION.eq(e.getKey())))) {
                tx.insertInto(OFFSETS).set(GROUP, group).set(TOPIC, topic).set(PARTITION, e.getKey()).set(NEXT, e.getValue())
                        .set(UPDATED, now).execute();
            }
        }
    }

    /** A column of {@code sluice.hot_offset}, qualified by the table (the conflict target). */
    private static Field<Object> qualified(String column) {
        return DSL.field(DSL.name(HotOffsetTable.TABLE.getQualifiedName(), DSL.name(column)));
    }
}
