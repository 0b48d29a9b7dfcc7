package dev.sluice.hotpath;

import dev.sluice.config.HotPathSpec;
import dev.sluice.hotpath.internal.kafka.KafkaLivePublisher;
import java.util.Map;

/**
 * Publishes events to a hot path's topic ({@code sluice produce}): key = the event id, value = the
 * event as JSON, record timestamp = the event time. Sends are asynchronous and idempotent
 * (acks=all); {@link #flush()} waits until every sent event is acknowledged. Not thread-safe.
 */
public interface LivePublisher extends AutoCloseable {

    /** Sends one event. */
    void publish(String key, byte[] value, long timestampMs);

    /**
     * Waits until every event sent so far is acknowledged.
     *
     * @throws dev.sluice.core.SluiceException when the broker refused one, naming why
     */
    void flush();

    @Override
    void close();

    /** A publisher to {@code hot.topic()} on {@code hot.bootstrapServers()}, with {@code extra} client settings. */
    static LivePublisher of(HotPathSpec hot, Map<String, Object> extra) {
        return new KafkaLivePublisher(hot, extra);
    }
}
