package dev.sluice.lineage.internal.openlineage;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.config.LineageSpec;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import dev.sluice.lineage.LineageEmitter;
import dev.sluice.lineage.RunEventType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * The Kafka transport against a real broker (in-process KRaft, spring-kafka-test): a run's events
 * arrive on the configured topic as OpenLineage JSON, in order.
 */
class KafkaTransportIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void eventsArriveOnTheTopic() throws Exception {
        EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 1, "lineage-events");
        broker.afterPropertiesSet();
        try {
            LineageSpec spec = new LineageSpec(LineageSpec.Transport.KAFKA, "", null, "", "sluice", 100,
                    broker.getBrokersAsString(), "lineage-events");
            RunId run = RunId.newId();
            OpenLineageEmitter emitter = new OpenLineageEmitter(spec, "1.0");
            for (RunEventType t : List.of(RunEventType.START, RunEventType.COMPLETE)) {
                emitter.emit(new LineageEmitter.RunEvent(t, run, LineageEmitter.RunKind.JOB, "flights", null, null,
                        Partition.parseDaily("2001-07-01"), null, null, Instant.now(), List.of(), List.of(), null, "0".repeat(64), null, run));
            }
            emitter.close();
            assertThat(emitter.stats()).isEqualTo(new dev.sluice.lineage.LineageEmitter.Stats(0, 2, 0, 0));

            List<JsonNode> received = new ArrayList<>();
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of("bootstrap.servers", broker.getBrokersAsString(),
                    "group.id", "test", "auto.offset.reset", "earliest"), new StringDeserializer(), new StringDeserializer())) {
                consumer.subscribe(List.of("lineage-events"));
                for (int i = 0; i < 60 && received.size() < 2; i++) {
                    for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
                        received.add(JSON.readTree(r.value()));
                    }
                }
            }
            assertThat(received).extracting(e -> e.path("eventType").asText()).containsExactly("START", "COMPLETE");
            assertThat(received).allSatisfy(e -> assertThat(e.path("run").path("runId").asText()).isEqualTo(run.toString()));
        } finally {
            broker.destroy();
        }
    }
}
