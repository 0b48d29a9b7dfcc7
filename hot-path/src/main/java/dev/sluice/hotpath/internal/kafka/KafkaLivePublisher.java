package dev.sluice.hotpath.internal.kafka;

import dev.sluice.config.HotPathSpec;
import dev.sluice.core.SluiceException;
import dev.sluice.hotpath.LivePublisher;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** {@link LivePublisher} on a Kafka producer (idempotent, acks=all, lz4, batching with a 5 ms linger). */
public final class KafkaLivePublisher implements LivePublisher {

    private final HotPathSpec hot;
    private final KafkaProducer<String, byte[]> producer;
    private final AtomicReference<Exception> failure = new AtomicReference<>();

    public KafkaLivePublisher(HotPathSpec hot, Map<String, Object> extra) {
        this.hot = hot;
        Properties p = new Properties();
        p.put("bootstrap.servers", hot.bootstrapServers());
        p.put("acks", "all");
        p.put("enable.idempotence", "true");
        p.put("linger.ms", "5");
        p.put("compression.type", "lz4");
        // an unreachable broker fails the command within half a minute, not the client's default 2 min
        p.put("max.block.ms", "10000");
        p.put("request.timeout.ms", "10000");
        p.put("delivery.timeout.ms", "30000");
        p.put("key.serializer", StringSerializer.class.getName());
        p.put("value.serializer", ByteArraySerializer.class.getName());
        p.putAll(extra);
        this.producer = new KafkaProducer<>(p);
    }

    @Override
    public void publish(String key, byte[] value, long timestampMs) {
        failFast();
        // the callback records a failure for the next call and close(): the Future adds nothing
        var unused = producer.send(new ProducerRecord<>(hot.topic(), null, timestampMs, key, value), (meta, e) -> {
            if (e != null) {
                failure.compareAndSet(null, e);
            }
        });
    }

    @Override
    public void flush() {
        producer.flush();
        failFast();
    }

    /** Throws the first refusal, so that an unreachable broker ends the command rather than each send waiting out its timeout. */
    private void failFast() {
        Exception e = failure.get();
        if (e != null) {
            throw new SluiceException("the broker at " + hot.bootstrapServers() + " refused an event for topic " + hot.topic() + ": "
                    + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(10));
    }
}
