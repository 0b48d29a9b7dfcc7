package dev.sluice.hotpath;

import dev.sluice.config.HotPathSpec;
import dev.sluice.hotpath.internal.kafka.KafkaRawConsumer;
import java.time.Duration;
import java.util.Map;

/**
 * The baseline of the hot-path benchmarks: a plain consumer that reads a hot path's topic from the
 * beginning in a group of its own and does nothing with the records. Its rate is the most any
 * consumer on the same broker, topic and machine can reach; the hot path's sink rate is judged
 * against it (goal: at least 50 %).
 */
public interface RawConsumer {

    /**
     * Reads {@code records} records of {@code hot.topic()} from the beginning (settings as the hot
     * path's consumer: {@code max_poll_records}, byte-array values, {@code extra} added).
     *
     * @return the wall time from the first poll to the last record, in nanoseconds
     * @throws dev.sluice.core.SluiceException when fewer than {@code records} arrive within {@code timeout}
     */
    static long read(HotPathSpec hot, Map<String, Object> extra, long records, Duration timeout) {
        return KafkaRawConsumer.read(hot, extra, records, timeout);
    }
}
