package dev.sluice.hotpath;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.config.HotPathSpec;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The watermark and the events that come too late for it. The watermark before a batch is the least
 * of the partitions' newest event times minus {@code hot_path.allowed_lateness}
 * ({@link HotOffsets#watermark}); an event of the batch whose event time (whole epoch seconds) is
 * before it is too late: kept in the sink marked {@code _late}, left out of the windows, and
 * (when newly written) quarantined (rule {@code too_late}) with its id as the key and its values as JSON as the value.
 * Pure computation; immutable and thread-safe.
 */
final class Lateness {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HotPathSpec hot;

    Lateness(HotPathSpec hot) {
        this.hot = hot;
    }

    /**
     * A batch's events sorted against the watermark, each list in the batch's order, each id's first
     * occurrence only (the one the sink keeps). Whether an event is already in the sink (a
     * redelivery, a replay) is not known here: the sink's insert says which it wrote, and only those
     * are windowed or quarantined ({@link HotSink#apply}).
     *
     * @param firsts each id's first occurrence, in batch order: the events the sink may write
     * @param onTime of {@code firsts}, those at or after the watermark: the windows count those written
     * @param lateIds the ids of the others
     * @param tooLate the others as poison records to quarantine (those written), in batch order
     * @param newestByPartition the newest event time (epoch seconds) of the batch's events, known ones
     *     included, by partition: the next watermark's input
     */
    record Sorted(List<HotSink.Consumed> firsts, List<HotSink.Consumed> onTime, Set<String> lateIds, List<TooLate> tooLate,
            Map<Integer, Long> newestByPartition) {
    }

    /**
     * An event too late for the watermark.
     *
     * @param id its event id
     * @param poison the record to quarantine for it
     */
    record TooLate(String id, HotSink.Poison poison) {
    }

    /**
     * The watermark before a batch, epoch seconds, from what the partitions stored before it;
     * {@link Long#MIN_VALUE} (nothing is late) until every one of the topic's
     * {@code topicPartitions} partitions has delivered an event (a partition not read yet may still
     * bring the oldest events).
     */
    long watermark(Map<Integer, HotOffsets.Stored> before, int topicPartitions) {
        return HotOffsets.watermark(before, topicPartitions, hot.allowedLateness());
    }

    /** Sorts {@code events} against {@code watermark} (epoch seconds). */
    Sorted sort(List<HotSink.Consumed> events, long watermark) {
        List<HotSink.Consumed> onTime = new ArrayList<>();
        Set<String> lateIds = new HashSet<>();
        List<TooLate> tooLate = new ArrayList<>();
        Map<Integer, Long> newestByPartition = new HashMap<>();
        Set<String> seen = new HashSet<>();
        List<HotSink.Consumed> firsts = new ArrayList<>();
        for (HotSink.Consumed c : events) {
            long epoch = c.event().eventTime().getEpochSecond();
            newestByPartition.merge(c.at().partition(), epoch, Math::max);
            if (!seen.add(c.event().id())) {
                continue; // a later occurrence of an id in this batch: the sink keeps the first, so only the first is judged
            }
            firsts.add(c);
            if (epoch < watermark) {
                lateIds.add(c.event().id());
                tooLate.add(new TooLate(c.event().id(), tooLate(c, watermark)));
            } else {
                onTime.add(c);
            }
        }
        return new Sorted(firsts, onTime, lateIds, tooLate, newestByPartition);
    }

    private HotSink.Poison tooLate(HotSink.Consumed c, long watermark) {
        return new HotSink.Poison(c.event().id().getBytes(StandardCharsets.UTF_8), valuesJson(c.event()), new EventDecoder.Violation("too_late",
                "event time " + c.event().eventTime() + " is before the watermark " + Instant.ofEpochSecond(watermark)
                        + " (the newest event time seen minus the allowed lateness " + hot.allowedLateness()
                        + "): kept in " + hot.sink().qualifiedName() + ", left out of the windows"), c.at());
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
}
