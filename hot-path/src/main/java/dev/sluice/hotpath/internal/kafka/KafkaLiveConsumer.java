package dev.sluice.hotpath.internal.kafka;

import dev.sluice.config.ContractSpec;
import dev.sluice.config.HotPathSpec;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.FaultPoints;
import dev.sluice.core.RunId;
import dev.sluice.core.SluiceException;
import dev.sluice.hotpath.EventDecoder;
import dev.sluice.hotpath.EventRules;
import dev.sluice.hotpath.HotSink;
import dev.sluice.hotpath.LiveConsumer;
import dev.sluice.hotpath.PartitionRead;
import dev.sluice.warehouse.Warehouse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * One consumer of a pipeline's hot path, on its own thread ({@link #run()}), in the pipeline's
 * consumer group, with one writer thread of its own. Per poll (at most {@code max_poll_records}):
 * <ol>
 *   <li>each record is decoded against the event contract ({@link EventDecoder}), then the decoded
 *       events are judged by the Silver rules of {@code rules_from} ({@link EventRules});</li>
 *   <li>poison records go to the dead-letter topic with headers {@code sluice.original.topic},
 *       {@code .partition}, {@code .offset}, {@code .timestamp}, {@code sluice.error.class},
 *       {@code sluice.error.message}, and the producer is flushed (the dead letters are on the
 *       broker before the batch counts as done; {@link DeadLetters});</li>
 *   <li>the batch is handed to the writer ({@link BatchWriter}), which writes events, quarantined poison and the next
 *       offsets in one database transaction ({@link HotSink}), in poll order, with each partition's
 *       lag as the consumer knew it right after the poll ({@link PartitionRead});</li>
 *   <li>once written, its offsets are committed to Kafka, which is only a hint: on every assignment
 *       the consumer seeks to the offsets stored in the database.</li>
 * </ol>
 * <b>Backpressure:</b> while {@value #MAX_IN_FLIGHT} batches wait for the writer, the consumer
 * pauses its partitions and keeps polling (no records, but the group keeps it: a slow sink never
 * reaches {@code max.poll.interval.ms}); it resumes them when the writer catches up.
 * <b>Rebalance:</b> on revocation the consumer waits until the writer has stored every batch it was
 * handed, so the next owner of a partition seeks to current positions. A crash anywhere re-reads
 * at most the batches in flight, which the sink ignores (event ids) or quarantines once:
 * effectively once. Stop with {@link #close()} from any thread: the batches in flight are written,
 * then it leaves the group. Not thread-safe otherwise.
 */
public final class KafkaLiveConsumer implements LiveConsumer {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaLiveConsumer.class);
    /** Batches handed to the writer and not yet written, at most, before the partitions are paused. */
    static final int MAX_IN_FLIGHT = 2;

    private final PipelineSpec spec;
    private final HotPathSpec hot;
    private final Warehouse warehouse;
    private final EventDecoder decoder;
    private final EventRules rules;
    private final HotSink sink;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final DeadLetters deadLetters;
    private final RunId run = RunId.newId();
    private final Hooks hooks;
    private final AtomicLong applied = new AtomicLong();
    private final AtomicLong pauses = new AtomicLong();
    private final AtomicLong revocations = new AtomicLong();
    private final BatchWriter writer;
    private volatile boolean running = true;
    /** The topic's partition count, once looked up (0: not yet); consumer thread only. */
    private int partitions;

    /**
     * @param extra Kafka client settings added to (and overriding) the defaults, e.g. security settings
     */
    public KafkaLiveConsumer(PipelineSpec spec, Warehouse warehouse, Map<String, Object> extra, Hooks hooks) {
        this.spec = spec;
        this.hot = Objects.requireNonNull(spec.hotPath(), "pipeline " + spec.name() + " has no hot_path");
        this.warehouse = warehouse;
        ContractSpec contract = spec.source(hot.source()).orElseThrow(() -> new SluiceException("no source " + hot.source())).contract();
        this.decoder = new EventDecoder(contract, hot.eventTime());
        this.rules = new EventRules(contract, hot.rules(), hot.rulesFrom() == null ? "" : hot.rulesFrom().qualifiedName());
        this.sink = new HotSink(spec.name(), hot, contract);
        this.hooks = hooks;
        sink.create(warehouse.dsl());
        this.consumer = new KafkaConsumer<>(consumerSettings(hot, hot.groupId(), extra));
        this.deadLetters = new DeadLetters(hot, extra);
        this.writer = new BatchWriter("sluice-hot-writer-" + spec.name());
    }

    @Override
    public long applied() {
        return applied.get();
    }

    @Override
    public long pauses() {
        return pauses.get();
    }

    @Override
    public long revocations() {
        return revocations.get();
    }

    @Override
    public void run() {
        MDC.put("run_id", run.toString());
        MDC.put("pipeline", spec.name());
        MDC.put("partition", "live");
        try {
            consumer.subscribe(List.of(hot.topic()), new Rebalance());
            long batch = 0;
            while (running) {
                commitWritten();
                writer.throwIfFailed();
                boolean behind = writer.inFlight() >= MAX_IN_FLIGHT;
                if (behind) {
                    if (!consumer.assignment().isEmpty() && !consumer.paused().containsAll(consumer.assignment())) {
                        consumer.pause(consumer.assignment());
                        pauses.incrementAndGet();
                        LOG.debug("the sink is behind ({} batches in flight): partitions paused", writer.inFlight());
                    }
                    // back as soon as the writer finishes a batch, not after a fixed sleep: the writer would idle
                    // meanwhile (with a 50 ms poll here, 500-event batches, two consumers: 12,103 events/s)
                    writer.awaitOldest(Duration.ofMillis(50));
                    consumer.poll(Duration.ZERO); // keeps the group membership; paused partitions return nothing
                    continue;
                }
                if (!consumer.paused().isEmpty()) {
                    consumer.resume(consumer.paused());
                }
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(200));
                if (records.isEmpty()) {
                    continue;
                }
                hand(records, ++batch);
            }
        } catch (WakeupException e) {
            if (running) {
                throw e;
            }
        } finally {
            try {
                writer.drain();
                commitWritten();
            } finally {
                writer.shutdown();
                consumer.close(Duration.ofSeconds(5));
                deadLetters.close();
                MDC.clear();
            }
        }
        writer.throwIfFailed();
    }

    /** Decodes and judges a poll's records, sends its dead letters, and hands the batch to the writer. */
    private void hand(ConsumerRecords<byte[], byte[]> records, long batch) {
        List<HotSink.Consumed> events = new ArrayList<>();
        List<HotSink.Poison> poison = new ArrayList<>();
        Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        List<ConsumerRecord<byte[], byte[]>> decoded = new ArrayList<>();
        List<EventDecoder.Event> candidates = new ArrayList<>();
        long[] timestamps = new long[records.count()];
        int n = 0;
        for (ConsumerRecord<byte[], byte[]> r : records) {
            timestamps[n++] = r.timestamp();
            EventDecoder.Decoded d = decoder.decode(r.key(), r.value());
            if (d.event() != null) {
                decoded.add(r);
                candidates.add(d.event());
            } else {
                poison.add(new HotSink.Poison(r.key(), r.value(), d.violation(), position(r)));
                sent.add(deadLetters.send(r, d.violation()));
            }
            commit.put(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1));
        }
        Map<Integer, PartitionRead> read = reads(records);
        // the Silver rules (rules_from), one read-only query for the batch
        Map<Integer, EventDecoder.Violation> ruled = rules.judge(warehouse.dsl(), candidates);
        for (int i = 0; i < candidates.size(); i++) {
            ConsumerRecord<byte[], byte[]> r = decoded.get(i);
            EventDecoder.Violation v = ruled.get(i);
            if (v == null) {
                events.add(new HotSink.Consumed(candidates.get(i), position(r)));
            } else {
                poison.add(new HotSink.Poison(r.key(), r.value(), v, position(r)));
                sent.add(deadLetters.send(r, v));
            }
        }
        deadLetters.awaitSent(sent);
        int topicPartitions = partitionCount();
        writer.submit(() -> {
            warehouse.dsl().transaction(c -> {
                sink.apply(c.dsl(), events, poison, read, run, topicPartitions);
                hooks.beforeCommit(batch);
            });
            FaultPoints.reach("hot-batch:committed");
            applied.addAndGet(events.size());
            writer.written(commit);
            hooks.committed(batch, timestamps);
        });
    }

    /**
     * For each partition of {@code records}, what the poll read: the offset after its last record, the
     * consumer's lag right after the poll, its records' timestamps.
     */
    private Map<Integer, PartitionRead> reads(ConsumerRecords<byte[], byte[]> records) {
        Map<Integer, PartitionRead> read = new LinkedHashMap<>();
        for (TopicPartition tp : records.partitions()) {
            // the lag after this poll: the log end the last fetch saw minus the position after the returned records.
            // That log end can be older than records already buffered from a later fetch, so the difference can
            // come out negative (-33 in a bench run): the consumer is then caught up, lag 0
            OptionalLong lag = consumer.currentLag(tp);
            List<ConsumerRecord<byte[], byte[]>> of = records.records(tp);
            read.put(tp.partition(), new PartitionRead(of.get(of.size() - 1).offset() + 1, lag.isPresent() ? Math.max(0, lag.getAsLong()) : null,
                    of.stream().mapToLong(ConsumerRecord::timestamp).toArray()));
        }
        return read;
    }

    /** Commits the offsets of written batches to Kafka (a hint), and forgets finished batches. */
    private void commitWritten() {
        Map<TopicPartition, OffsetAndMetadata> merged = writer.takeWritten();
        if (!merged.isEmpty()) {
            consumer.commitAsync(merged, null);
        }
    }

    /**
     * The settings of every consumer of a hot path's topic (this one and the benchmark's raw
     * baseline): byte-array records, no auto-commit, from the earliest offset when the group has
     * none, at most {@code max_poll_records} per poll; {@code extra} added last.
     */
    static Properties consumerSettings(HotPathSpec hot, String groupId, Map<String, Object> extra) {
        Properties c = new Properties();
        c.put("bootstrap.servers", hot.bootstrapServers());
        c.put("group.id", groupId);
        c.put("enable.auto.commit", "false");
        c.put("auto.offset.reset", "earliest");
        c.put("max.poll.records", Integer.toString(hot.maxPollRecords()));
        c.put("key.deserializer", ByteArrayDeserializer.class.getName());
        c.put("value.deserializer", ByteArrayDeserializer.class.getName());
        c.putAll(extra);
        return c;
    }

    private static HotSink.Position position(ConsumerRecord<byte[], byte[]> r) {
        return new HotSink.Position(r.topic(), r.partition(), r.offset());
    }

    /** The topic's partition count (looked up once; the watermark waits for all of them). */
    private int partitionCount() {
        if (partitions == 0) {
            var info = consumer.partitionsFor(hot.topic(), Duration.ofSeconds(10));
            partitions = info == null ? 1 : info.size();
        }
        return partitions;
    }

    /** Stops the consumer: the batch in flight is finished, then it leaves the group. Safe from any thread. */
    @Override
    public void close() {
        running = false;
        consumer.wakeup();
    }

    /**
     * On revocation, stores every batch handed over before the partitions go (the next owner seeks to
     * the stored positions); on assignment, seeks each partition to its position stored in the
     * warehouse, or to its beginning when none is stored. Runs on the consumer's thread, inside poll.
     */
    private final class Rebalance implements ConsumerRebalanceListener {

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            if (running && !partitions.isEmpty()) {
                revocations.incrementAndGet(); // not the consumer's own leaving at close
            }
            // the next owner seeks to the stored positions: store every batch handed over first
            writer.drain();
            commitWritten();
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            Map<Integer, Long> stored = sink.positions(warehouse.dsl(), hot.topic());
            List<TopicPartition> unread = new ArrayList<>();
            for (TopicPartition tp : partitions) {
                Long next = stored.get(tp.partition());
                if (next != null) {
                    consumer.seek(tp, next);
                } else {
                    unread.add(tp); // the warehouse has read nothing of it: from the start, whatever Kafka committed
                }
            }
            if (!unread.isEmpty()) {
                consumer.seekToBeginning(unread);
            }
            LOG.info("assigned {} (positions from the warehouse: {})", partitions, stored);
        }
    }
}
