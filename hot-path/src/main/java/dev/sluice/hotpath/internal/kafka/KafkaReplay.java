package dev.sluice.hotpath.internal.kafka;

import dev.sluice.config.HotPathSpec;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.SluiceException;
import dev.sluice.hotpath.HotSink;
import dev.sluice.warehouse.Warehouse;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@link dev.sluice.hotpath.LiveReplay} on Kafka: offsets by timestamp from the broker, positions moved in the warehouse. */
public final class KafkaReplay {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaReplay.class);

    private KafkaReplay() {
    }

    public static Map<Integer, Long> fromTime(PipelineSpec spec, Warehouse warehouse, Instant from, Map<String, Object> extra) {
        HotPathSpec hot = hot(spec);
        try (KafkaConsumer<byte[], byte[]> c = consumer(hot, extra)) {
            Map<TopicPartition, Long> query = new HashMap<>();
            partitions(c, hot).forEach(tp -> query.put(tp, from.toEpochMilli()));
            Map<Integer, Long> to = new TreeMap<>();
            for (Map.Entry<TopicPartition, OffsetAndTimestamp> e : c.offsetsForTimes(query, Duration.ofSeconds(10)).entrySet()) {
                if (e.getValue() != null) {
                    to.put(e.getKey().partition(), e.getValue().offset());
                }
            }
            return move(spec, warehouse, hot, extra, to);
        }
    }

    public static Map<Integer, Long> fromOffsets(PipelineSpec spec, Warehouse warehouse, Map<Integer, Long> offsets, Map<String, Object> extra) {
        HotPathSpec hot = hot(spec);
        try (KafkaConsumer<byte[], byte[]> c = consumer(hot, extra)) {
            List<TopicPartition> tps = partitions(c, hot);
            Map<TopicPartition, Long> begin = c.beginningOffsets(tps, Duration.ofSeconds(10));
            Map<TopicPartition, Long> end = c.endOffsets(tps, Duration.ofSeconds(10));
            Map<Integer, Long> to = new TreeMap<>();
            for (Map.Entry<Integer, Long> e : offsets.entrySet()) {
                TopicPartition tp = new TopicPartition(hot.topic(), e.getKey());
                if (!begin.containsKey(tp)) {
                    throw new SluiceException("topic " + hot.topic() + " has no partition " + e.getKey() + " (it has " + tps.size() + ")");
                }
                to.put(e.getKey(), Math.max(begin.get(tp), Math.min(end.get(tp), e.getValue())));
            }
            return move(spec, warehouse, hot, extra, to);
        }
    }

    private static Map<Integer, Long> move(PipelineSpec spec, Warehouse warehouse, HotPathSpec hot, Map<String, Object> extra, Map<Integer, Long> to) {
        refuseWhileConsuming(hot, extra);
        warehouse.dsl().transaction(c -> new HotSink(spec.name(), hot, spec.source(hot.source()).orElseThrow().contract())
                .rewind(c.dsl(), hot.topic(), to));
        LOG.info("replay of {}: group {} moved back to {}", hot.topic(), hot.groupId(), to);
        return to;
    }

    private static void refuseWhileConsuming(HotPathSpec hot, Map<String, Object> extra) {
        Properties p = new Properties();
        p.put("bootstrap.servers", hot.bootstrapServers());
        p.putAll(extra);
        try (Admin admin = Admin.create(p)) {
            ConsumerGroupDescription d = admin.describeConsumerGroups(List.of(hot.groupId())).all().get().get(hot.groupId());
            if (d != null && !d.members().isEmpty()) {
                throw new SluiceException("consumer group " + hot.groupId() + " has " + d.members().size() + " active member(s): stop"
                        + " `sluice hot-path` first (a running consumer keeps its own position and would move the group forward again)");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SluiceException("interrupted while asking the broker about group " + hot.groupId(), e);
        } catch (ExecutionException e) {
            throw new SluiceException("cannot ask the broker at " + hot.bootstrapServers() + " about group " + hot.groupId() + ": "
                    + e.getCause().getMessage(), e);
        }
    }

    private static HotPathSpec hot(PipelineSpec spec) {
        if (spec.hotPath() == null) {
            throw new SluiceException("pipeline " + spec.name() + " declares no hot path");
        }
        return spec.hotPath();
    }

    private static KafkaConsumer<byte[], byte[]> consumer(HotPathSpec hot, Map<String, Object> extra) {
        Properties p = new Properties();
        p.put("bootstrap.servers", hot.bootstrapServers());
        p.put("key.deserializer", ByteArrayDeserializer.class.getName());
        p.put("value.deserializer", ByteArrayDeserializer.class.getName());
        p.put("default.api.timeout.ms", "10000");
        p.putAll(extra);
        return new KafkaConsumer<>(p);
    }

    private static List<TopicPartition> partitions(KafkaConsumer<byte[], byte[]> c, HotPathSpec hot) {
        var info = c.partitionsFor(hot.topic(), Duration.ofSeconds(10));
        if (info == null || info.isEmpty()) {
            throw new SluiceException("topic " + hot.topic() + " does not exist on " + hot.bootstrapServers());
        }
        return info.stream().map(i -> new TopicPartition(hot.topic(), i.partition())).toList();
    }
}
