package dev.sluice.hotpath.internal.kafka;

import dev.sluice.config.HotPathSpec;
import dev.sluice.core.SluiceException;
import dev.sluice.hotpath.EventDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The hot path's dead-letter topic ({@code hot_path.dead_letter_topic}): each poison record as it was
 * read (key and value bytes unchanged), with the headers {@code sluice.original.topic},
 * {@code .partition}, {@code .offset}, {@code .timestamp} (ms since the epoch, as decimal text),
 * {@code sluice.error.class} (the rule id) and {@code sluice.error.message} (the reason), all UTF-8.
 * An idempotent producer with {@code acks=all}; of the consumer's extra settings it takes only the
 * {@code security.}, {@code sasl.} and {@code ssl.} ones. Used by the consumer's thread only; the
 * Kafka producer itself is thread-safe.
 */
final class DeadLetters implements AutoCloseable {

    private final HotPathSpec hot;
    private final KafkaProducer<byte[], byte[]> producer;

    /** @param extra the consumer's extra Kafka client settings */
    DeadLetters(HotPathSpec hot, Map<String, Object> extra) {
        this.hot = hot;
        Properties p = new Properties();
        p.put("bootstrap.servers", hot.bootstrapServers());
        p.put("acks", "all");
        p.put("enable.idempotence", "true");
        p.put("key.serializer", ByteArraySerializer.class.getName());
        p.put("value.serializer", ByteArraySerializer.class.getName());
        extra.forEach((k, v) -> {
            if (k.startsWith("security.") || k.startsWith("sasl.") || k.startsWith("ssl.")) {
                p.put(k, v);
            }
        });
        this.producer = new KafkaProducer<>(p);
    }

    /** Sends {@code r} refused for {@code v}, asynchronously; {@link #awaitSent} waits for it. */
    Future<RecordMetadata> send(ConsumerRecord<byte[], byte[]> r, EventDecoder.Violation v) {
        return producer.send(deadLetter(r, v));
    }

    /**
     * Flushes the producer and waits for each of {@code sent} (nothing for none): the dead letters are
     * on the broker when it returns.
     *
     * @throws SluiceException naming the topic when the broker refused one
     */
    void awaitSent(List<Future<RecordMetadata>> sent) {
        if (sent.isEmpty()) {
            return;
        }
        producer.flush();
        for (Future<RecordMetadata> f : sent) {
            try {
                f.get();
            } catch (Exception e) {
                throw new SluiceException("the dead-letter topic " + hot.deadLetterTopic() + " refused a record: " + e.getMessage(), e);
            }
        }
    }

    /** Closes the producer, waiting at most 5 s for records not sent yet. */
    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }

    private ProducerRecord<byte[], byte[]> deadLetter(ConsumerRecord<byte[], byte[]> r, EventDecoder.Violation v) {
        ProducerRecord<byte[], byte[]> out = new ProducerRecord<>(hot.deadLetterTopic(), r.key(), r.value());
        out.headers().add("sluice.original.topic", r.topic().getBytes(StandardCharsets.UTF_8));
        out.headers().add("sluice.original.partition", Integer.toString(r.partition()).getBytes(StandardCharsets.UTF_8));
        out.headers().add("sluice.original.offset", Long.toString(r.offset()).getBytes(StandardCharsets.UTF_8));
        out.headers().add("sluice.original.timestamp", Long.toString(r.timestamp()).getBytes(StandardCharsets.UTF_8));
        out.headers().add("sluice.error.class", v.ruleId().getBytes(StandardCharsets.UTF_8));
        out.headers().add("sluice.error.message", v.reason().getBytes(StandardCharsets.UTF_8));
        return out;
    }
}
