package dev.sluice.hotpath;

import dev.sluice.warehouse.ColumnTypes;
import dev.sluice.core.FaultPoints;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.config.ColumnSpec;
import dev.sluice.config.ContractSpec;
import dev.sluice.config.HotPathSpec;
import dev.sluice.core.RunId;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.jspecify.annotations.Nullable;

/**
 * Where the hot path lands what it consumed, in one database transaction per poll batch:
 * <ul>
 *   <li>every valid event, once, in the sink table ({@code hot_path.sink}): the contract's columns
 *       plus {@code _event_id} (the record key, primary key: a redelivered event is ignored),
 *       {@code _content_hash}, {@code _event_time}, {@code _source} ({@code kafka:<topic>/<partition>}),
 *       {@code _source_pos} (the offset) and {@code _ingested_at};</li>
 *   <li>every poison record, once, in {@code sluice.quarantine} with its raw key and value;</li>
 *   <li>the next offset of every partition the batch read, in {@code sluice.hot_offset}, only ever
 *       moving forward, with the partition's health after the batch: the consumer's lag, the events
 *       stored so far, the batch's latency and the events/s ({@link HotOffsets}).</li>
 * </ul>
 * The caller's transaction makes the three one unit: either all of a batch is in the database with
 * its offsets, or none of it. Thread-safe (stateless besides the table names).
 */
public final class HotSink {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Table<?> QUARANTINE = DSL.table(DSL.name("sluice", "quarantine"));

    private final String pipeline;
    private final HotPathSpec hot;
    private final ContractSpec contract;
    private final HotOffsets offsets;
    private final List<WindowStore> windows = new ArrayList<>();

    public HotSink(String pipeline, HotPathSpec hot, ContractSpec contract) {
        this.pipeline = pipeline;
        this.hot = hot;
        this.contract = contract;
        this.offsets = new HotOffsets(hot);
        hot.windows().forEach(w -> windows.add(new WindowStore(w, hot, contract)));
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

    /** Creates the sink table when it does not exist. */
    public void create(DSLContext dsl) {
        dsl.createSchemaIfNotExists(DSL.name(hot.sink().schema())).execute();
        var create = dsl.createTableIfNotExists(sinkTable());
        for (ColumnSpec c : contract.columns()) {
            create = create.column(DSL.name(c.name()), ColumnTypes.of(c));
        }
        create.column(DSL.name("_event_id"), SQLDataType.VARCHAR(200).notNull())
                .column(DSL.name("_content_hash"), SQLDataType.VARCHAR(64).notNull())
                .column(DSL.name("_event_time"), SQLDataType.LOCALDATETIME(6).notNull())
                .column(DSL.name("_source"), SQLDataType.VARCHAR(300).notNull())
                .column(DSL.name("_source_pos"), SQLDataType.BIGINT.notNull())
                .column(DSL.name("_ingested_at"), SQLDataType.TIMESTAMPWITHTIMEZONE.notNull())
                .column(DSL.name("_event_epoch_s"), SQLDataType.BIGINT.notNull())
                .column(DSL.name("_late"), SQLDataType.BOOLEAN.notNull())
                .primaryKey(DSL.name("_event_id"))
                .execute();
        dsl.createIndexIfNotExists(DSL.name(hot.sink().table() + "_time_ix")).on(sinkTable(), DSL.field(DSL.name("_event_epoch_s")))
                .execute();
        // exact duplicates are looked up by content when a window counts each content once
        dsl.createIndexIfNotExists(DSL.name(hot.sink().table() + "_content_ix")).on(sinkTable(), DSL.field(DSL.name("_content_hash")))
                .execute();
        windows.forEach(w -> w.create(dsl));
    }

    /** Characters of a text value an event may hold; {@link EventDecoder} refuses a longer value. */
    static final int MAX_TEXT_CHARS = 4000;

    private Table<?> sinkTable() {
        return DSL.table(DSL.name(hot.sink().schema(), hot.sink().table()));
    }

    /**
     * Applies one batch in {@code tx} (the caller's transaction). Until every one of the topic's
     * {@code topicPartitions} partitions has delivered an event the watermark holds back (a
     * partition not read yet may still bring the oldest events), so nothing is judged late.
     *
     * @param consumerRun the consumer's run id, recorded with quarantined records
     * @param read for each partition of {@code hot_path.topic} the batch read, the offset after its
     *     last record, the consumer's lag after the poll and the records' timestamps
     */
    public void apply(DSLContext tx, List<Consumed> events, List<Poison> poison, Map<Integer, PartitionRead> read, RunId consumerRun,
            int topicPartitions) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        Map<Integer, HotOffsets.Stored> before = offsets.read(tx, hot.topic());
        long watermark = HotOffsets.watermark(before, topicPartitions, hot.allowedLateness());
        // events already in the sink (a redelivery, a replay) change nothing: not judged late again, not re-windowed
        java.util.Set<String> known = knownIds(tx, events);
        List<Consumed> fresh = new ArrayList<>();
        List<Consumed> onTime = new ArrayList<>();
        java.util.Set<String> lateIds = new java.util.HashSet<>();
        List<Poison> all = new ArrayList<>(poison);
        Map<Integer, Long> newestByPartition = new java.util.HashMap<>();
        for (Consumed c : events) {
            long epoch = c.event().eventTime().getEpochSecond();
            newestByPartition.merge(c.at().partition(), epoch, Math::max);
            if (known.contains(c.event().id())) {
                continue;
            }
            fresh.add(c);
            if (epoch < watermark) {
                lateIds.add(c.event().id());
                all.add(tooLate(c, watermark));
            } else {
                onTime.add(c);
            }
        }
        java.util.Set<String> inserted = fresh.isEmpty() ? java.util.Set.of() : insertEvents(tx, fresh, lateIds);
        Map<Integer, Integer> storedByPartition = new java.util.HashMap<>();
        fresh.stream().filter(c -> inserted.contains(c.event().id())).forEach(c -> storedByPartition.merge(c.at().partition(), 1, Integer::sum));
        quarantine(tx, all, consumerRun, now);
        FaultPoints.reach("hot-batch:in-transaction");
        offsets.advance(tx, hot.topic(), read, newestByPartition, storedByPartition, before);
        rewindow(tx, onTime.stream().filter(c -> inserted.contains(c.event().id())).toList());
        FaultPoints.reach("hot-batch:offsets-stored");
    }

    private java.util.Set<String> knownIds(DSLContext tx, List<Consumed> events) {
        if (events.isEmpty()) {
            return java.util.Set.of();
        }
        Field<String> id = DSL.field(DSL.name("_event_id"), String.class);
        return new java.util.HashSet<>(tx.select(id).from(sinkTable()).where(id.in(events.stream().map(c -> c.event().id()).toList()))
                .fetch(id));
    }

    private Poison tooLate(Consumed c, long watermark) {
        return new Poison(c.event().id().getBytes(StandardCharsets.UTF_8), valuesJson(c.event()), new EventDecoder.Violation("too_late",
                "event time " + c.event().eventTime() + " is before the watermark " + java.time.Instant.ofEpochSecond(watermark)
                        + " (the newest event time seen minus the allowed lateness " + hot.allowedLateness()
                        + "): kept in " + hot.sink().qualifiedName() + ", left out of the windows"), c.at());
    }

    /** Quarantines each poison record once (by its source position). */
    private void quarantine(DSLContext tx, List<Poison> poison, RunId consumerRun, OffsetDateTime now) {
        if (poison.isEmpty()) {
            return;
        }
        // the positions already quarantined (a redelivered batch), in one query; then one JDBC batch
        Field<String> source = DSL.field(DSL.name("source"), String.class);
        Field<Long> position = DSL.field(DSL.name("source_pos"), Long.class);
        java.util.Set<String> known = new java.util.HashSet<>();
        tx.select(source, position).from(QUARANTINE)
                .where(source.in(poison.stream().map(p -> p.at().source()).distinct().toList()),
                        position.in(poison.stream().map(p -> p.at().offset()).distinct().toList()))
                .forEach(r -> known.add(r.value1() + "@" + r.value2()));
        List<Field<?>> fields = new ArrayList<>();
        for (String n : List.of("pipeline", "dataset", "partition_key", "run_id", "source", "rule_id", "reason", "record_json", "status")) {
            fields.add(DSL.field(DSL.name(n), SQLDataType.VARCHAR));
        }
        fields.add(DSL.field(DSL.name("source_pos"), SQLDataType.BIGINT));
        fields.add(DSL.field(DSL.name("quarantined_at"), SQLDataType.TIMESTAMPWITHTIMEZONE));
        List<Field<?>> placeholders = new ArrayList<>();
        fields.forEach(f -> placeholders.add(DSL.val(null, f.getDataType())));
        var batch = tx.batch(tx.insertInto(QUARANTINE, fields).values(placeholders));
        int rows = 0;
        for (Poison p : poison) {
            if (!known.add(p.at().source() + "@" + p.at().offset())) {
                continue; // quarantined before, or twice in this batch
            }
            batch = batch.bind(pipeline, hot.sink().qualifiedName(), "none", consumerRun.toString(), p.at().source(), p.violation().ruleId(),
                    truncate(p.violation().reason(), 1000), raw(p), "OPEN", p.at().offset(), now);
            rows++;
        }
        if (rows > 0) {
            batch.execute();
        }
    }

    /** Counts {@code counted} (events counted from now on, not before) in every window. */
    private void rewindow(DSLContext tx, List<Consumed> counted) {
        if (counted.isEmpty()) {
            return;
        }
        List<EventDecoder.Event> events = counted.stream().map(Consumed::event).toList();
        for (WindowStore w : windows) {
            w.add(tx, events);
        }
    }

    /** An event's values as a JSON object (timestamps in ISO form), as a quarantined record keeps them. */
    private static byte[] valuesJson(EventDecoder.Event e) {
        ObjectNode n = JSON.createObjectNode();
        e.values().forEach((k, v) -> {
            if (v == null) {
                n.putNull(k);
            } else if (v instanceof Number || v instanceof Boolean) {
                n.set(k, JSON.valueToTree(v));
            } else {
                n.put(k, v.toString());
            }
        });
        return n.toString().getBytes(StandardCharsets.UTF_8);
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
        Field<String> id = DSL.field(DSL.name("_event_id"), String.class);
        Field<Boolean> late = DSL.field(DSL.name("_late"), Boolean.class);
        Map<String, Boolean> stored = new java.util.HashMap<>();
        tx.select(id, late).from(sinkTable()).where(id.in(events.stream().map(c -> c.event().id()).toList()))
                .forEach(r -> stored.put(r.value1(), r.value2()));
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
            tx.update(sinkTable()).set(late, false).where(id.in(nowOnTime)).execute();
        }
        java.util.Set<String> inserted = fresh.isEmpty() ? java.util.Set.of() : insertEvents(tx, fresh, java.util.Set.of());
        List<Consumed> nowCounted = counted.stream().filter(c -> nowOnTime.contains(c.event().id()) || inserted.contains(c.event().id())).toList();
        rewindow(tx, nowCounted);
        return nowCounted.size();
    }

    /**
     * Writes {@code events} to the sink, those in {@code lateIds} marked {@code _late}, and returns
     * the ids actually written: one prepared
     * statement as one JDBC batch (a multi-row MERGE makes H2's parser recurse per row), with typed
     * placeholders so that the database knows each bind value's type; an id already there is ignored.
     */
    private java.util.Set<String> insertEvents(DSLContext tx, List<Consumed> events, java.util.Set<String> lateIds) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        List<Field<?>> fields = sinkFields();
        List<Field<?>> placeholders = new ArrayList<>();
        fields.forEach(f -> placeholders.add(DSL.val(null, f.getDataType())));
        var batch = tx.batch(tx.insertInto(sinkTable(), fields).values(placeholders)
                .onConflict(DSL.field(DSL.name(hot.sink().schema(), hot.sink().table(), "_event_id"))).doNothing());
        for (Consumed c : events) {
            batch = batch.bind(row(c, now, lateIds.contains(c.event().id())).toArray());
        }
        int[] counts = batch.execute();
        java.util.Set<String> inserted = new java.util.HashSet<>();
        for (int i = 0; i < events.size(); i++) {
            // an id another writer stored meanwhile is not counted twice (JDBC: 0 rows; SUCCESS_NO_INFO: taken as written)
            if (i >= counts.length || counts[i] != 0) {
                inserted.add(events.get(i).event().id());
            }
        }
        return inserted;
    }

    private List<Field<?>> sinkFields() {
        List<Field<?>> fields = new ArrayList<>();
        contract.columns().forEach(c -> fields.add(DSL.field(DSL.name(c.name()), ColumnTypes.of(c))));
        fields.add(DSL.field(DSL.name("_event_id"), SQLDataType.VARCHAR(200)));
        fields.add(DSL.field(DSL.name("_content_hash"), SQLDataType.VARCHAR(64)));
        fields.add(DSL.field(DSL.name("_event_time"), SQLDataType.LOCALDATETIME(6)));
        fields.add(DSL.field(DSL.name("_source"), SQLDataType.VARCHAR(300)));
        fields.add(DSL.field(DSL.name("_source_pos"), SQLDataType.BIGINT));
        fields.add(DSL.field(DSL.name("_ingested_at"), SQLDataType.TIMESTAMPWITHTIMEZONE));
        fields.add(DSL.field(DSL.name("_event_epoch_s"), SQLDataType.BIGINT));
        fields.add(DSL.field(DSL.name("_late"), SQLDataType.BOOLEAN));
        return fields;
    }

    private static List<Object> row(Consumed c, OffsetDateTime now, boolean late) {
        List<Object> row = new ArrayList<>(c.event().values().values());
        row.add(c.event().id());
        row.add(c.event().contentHash());
        row.add(LocalDateTime.ofInstant(c.event().eventTime(), ZoneOffset.UTC));
        row.add(c.at().source());
        row.add(c.at().offset());
        row.add(now);
        row.add(c.event().eventTime().getEpochSecond());
        row.add(late);
        return row;
    }

    /**
     * Moves the stored positions of {@code topic} back to {@code to} (a replay: the only way they
     * move backwards); a partition with no stored position gets one.
     */
    public void rewind(DSLContext tx, String topic, Map<Integer, Long> to) {
        offsets.rewind(tx, topic, to);
    }

    /** The stored next offset of each partition of {@code topic} for this group. */
    public Map<Integer, Long> positions(DSLContext dsl, String topic) {
        Map<Integer, Long> out = new java.util.HashMap<>();
        offsets.read(dsl, topic).forEach((partition, stored) -> out.put(partition, stored.nextOffset()));
        return out;
    }

    /** The raw record as JSON: the key and value as UTF-8 text when they are, else Base64. */
    private static String raw(Poison p) {
        ObjectNode n = JSON.createObjectNode();
        put(n, "key", p.key());
        put(n, "value", p.value());
        return truncate(n.toString(), 100_000);
    }

    private static void put(ObjectNode n, String name, byte @Nullable [] bytes) {
        if (bytes == null) {
            n.putNull(name);
            return;
        }
        var decoder = StandardCharsets.UTF_8.newDecoder();
        try {
            n.put(name, decoder.decode(java.nio.ByteBuffer.wrap(bytes)).toString());
        } catch (java.nio.charset.CharacterCodingException e) {
            n.put(name + "_base64", Base64.getEncoder().encodeToString(bytes));
        }
    }

    private static String truncate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 3) + "...";
    }
}
