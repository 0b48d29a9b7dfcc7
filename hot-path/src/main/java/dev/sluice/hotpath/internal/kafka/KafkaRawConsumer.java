package dev.sluice.hotpath.internal.kafka;

import dev.sluice.config.HotPathSpec;
import dev.sluice.core.SluiceException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.KafkaConsumer;

/** {@link dev.sluice.hotpath.RawConsumer} on a Kafka consumer in a fresh group. Stateless. */
public final class KafkaRawConsumer {

    private KafkaRawConsumer() {
    }

    /** See {@link dev.sluice.hotpath.RawConsumer#read}. */
    public static long read(HotPathSpec hot, Map<String, Object> extra, long records, Duration timeout) {
        Properties c = KafkaLiveConsumer.consumerSettings(hot, "sluice-raw-baseline-" + UUID.randomUUID(), extra);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c)) {
            consumer.subscribe(List.of(hot.topic()));
            long end = System.nanoTime() + timeout.toNanos();
            long read = 0;
            long started = 0;
            while (read < records) {
                if (System.nanoTime() > end) {
                    throw new SluiceException("the raw consumer read " + read + " of " + records + " records of " + hot.topic() + " in " + timeout);
                }
                int n = consumer.poll(Duration.ofMillis(200)).count();
                if (n > 0 && started == 0) {
                    started = System.nanoTime();
                }
                read += n;
            }
            return System.nanoTime() - started;
        }
    }
}
