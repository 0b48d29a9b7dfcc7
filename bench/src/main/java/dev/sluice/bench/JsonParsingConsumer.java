package dev.sluice.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The ceiling of useful work on the hot path (issue #29): {@code consumers} plain Kafka consumers,
 * one thread each, in a consumer group of their own, read a topic from its earliest offset and
 * parse every record's value with Jackson ({@code ObjectMapper.readTree}), then discard the tree.
 * Every real sink at least parses the JSON, so a sink's rate is judged against this one, not
 * against a consumer that discards the bytes. Same consumer settings as Sluice's hot path:
 * byte-array records, no auto-commit, {@code max.poll.records} as given. Stateless; each call is
 * independent.
 */
final class JsonParsingConsumer {

    private static final ObjectMapper JSON = new ObjectMapper();

    private JsonParsingConsumer() {
    }

    /**
     * What one read found.
     *
     * @param records records parsed (all members)
     * @param nanos wall time from the first record any member received to the last record parsed, ns
     * @param fieldsSeen JSON fields seen over all records (a check that the parse did work: 5 per flight event)
     */
    record Read(long records, long nanos, long fieldsSeen) {

        /** Records per second. */
        double perSecond() {
            return records / (nanos / 1e9);
        }
    }

    /**
     * Reads {@code records} records of {@code topic} with {@code consumers} members.
     *
     * @param maxPollRecords records per poll, as the hot path's {@code max_poll_records}
     * @throws IllegalStateException when fewer than {@code records} arrive within {@code timeout}, or a value is not JSON
     */
    static Read read(String bootstrap, String topic, int consumers, int maxPollRecords, long records, Duration timeout)
            throws InterruptedException {
        String group = "bench.json-ceiling." + UUID.randomUUID();
        AtomicLong parsed = new AtomicLong();
        AtomicLong fields = new AtomicLong();
        AtomicLong first = new AtomicLong();
        AtomicLong last = new AtomicLong();
        long deadline = System.nanoTime() + timeout.toNanos();
        List<Thread> members = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int i = 0; i < consumers; i++) {
            Thread t = new Thread(() -> {
                try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(settings(bootstrap, group, maxPollRecords))) {
                    c.subscribe(List.of(topic));
                    while (parsed.get() < records && System.nanoTime() < deadline) {
                        ConsumerRecords<byte[], byte[]> batch = c.poll(Duration.ofMillis(100));
                        if (batch.isEmpty()) {
                            continue;
                        }
                        first.compareAndSet(0, System.nanoTime());
                        long f = 0;
                        for (ConsumerRecord<byte[], byte[]> r : batch) {
                            f += parse(r.value()).size();
                        }
                        fields.addAndGet(f);
                        if (parsed.addAndGet(batch.count()) >= records) {
                            last.compareAndSet(0, System.nanoTime());
                        }
                    }
                } catch (RuntimeException | Error e) {
                    failures.add(e);
                }
            }, "json-ceiling-" + i);
            t.start();
            members.add(t);
        }
        for (Thread t : members) {
            t.join();
        }
        if (!failures.isEmpty()) {
            throw new IllegalStateException("the JSON-parsing consumer failed: " + failures.get(0), failures.get(0));
        }
        if (last.get() == 0) {
            throw new IllegalStateException("the JSON-parsing consumer read " + parsed.get() + " of " + records + " records in " + timeout);
        }
        return new Read(parsed.get(), last.get() - first.get(), fields.get());
    }

    private static JsonNode parse(byte[] value) {
        try {
            return JSON.readTree(value);
        } catch (IOException e) {
            throw new UncheckedIOException("a record's value is not JSON", e);
        }
    }

    private static Properties settings(String bootstrap, String group, int maxPollRecords) {
        Properties c = new Properties();
        c.put("bootstrap.servers", bootstrap);
        c.put("group.id", group);
        c.put("enable.auto.commit", "false");
        c.put("auto.offset.reset", "earliest");
        c.put("max.poll.records", Integer.toString(maxPollRecords));
        c.put("key.deserializer", ByteArrayDeserializer.class.getName());
        c.put("value.deserializer", ByteArrayDeserializer.class.getName());
        return c;
    }
}
