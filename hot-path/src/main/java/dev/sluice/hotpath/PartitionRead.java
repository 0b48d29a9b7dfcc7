package dev.sluice.hotpath;

import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * What one poll batch read of one topic partition, as the consumer thread saw it.
 *
 * @param nextOffset the offset after the batch's last record of the partition
 * @param lagRecords the consumer's lag right after the poll: the partition's log-end offset minus
 *     its position, in records ({@code KafkaConsumer#currentLag}); null when the consumer did not
 *     know the log end yet
 * @param recordTimestampsMs the Kafka timestamps of the batch's records of the partition (poison
 *     included), ms since the epoch; negative: the record had none. Not copied: the caller hands it over
 */
public record PartitionRead(long nextOffset, @Nullable Long lagRecords, long[] recordTimestampsMs) {

    public PartitionRead {
        if (nextOffset < 0) {
            throw new IllegalArgumentException("nextOffset " + nextOffset + " is negative");
        }
        if (lagRecords != null && lagRecords < 0) {
            throw new IllegalArgumentException("lagRecords " + lagRecords + " is negative");
        }
    }

    /** A read known only by its next offset: lag and timestamps unknown. */
    public static PartitionRead at(long nextOffset) {
        return new PartitionRead(nextOffset, null, new long[0]);
    }

    /**
     * The batch's event-to-sink latency at {@code nowMs}, ms: the greatest and the median (lower
     * median, nearest rank) of {@code nowMs} minus each record timestamp, records without one left
     * out; both null when none had one. A timestamp after {@code nowMs} (a producer's clock ahead)
     * counts as 0.
     */
    public Latency latencyMs(long nowMs) {
        long[] l = Arrays.stream(recordTimestampsMs).filter(t -> t >= 0).map(t -> Math.max(0, nowMs - t)).sorted().toArray();
        if (l.length == 0) {
            return new Latency(null, null);
        }
        return new Latency(l[l.length - 1], l[(l.length - 1) / 2]);
    }

    /** A batch's latency, ms (both null when unknown). */
    public record Latency(@Nullable Long maxMs, @Nullable Long p50Ms) {
    }
}
