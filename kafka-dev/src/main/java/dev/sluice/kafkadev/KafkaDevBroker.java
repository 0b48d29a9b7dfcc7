package dev.sluice.kafkadev;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A single-node KRaft Kafka broker for development and tests ({@code sluice kafka-dev start}):
 * broker and controller in one process on loopback, its data under a directory, formatted on first
 * start with a standalone controller quorum (the steps of Kafka's quickstart: {@code kafka-storage
 * format --standalone}, then {@code kafka.Kafka}). Replication factors 1; topics are created on
 * first use with 3 partitions. Runs until SIGTERM.
 *
 * <p>Arguments: {@code DIR PORT CONTROLLER_PORT}.
 */
public final class KafkaDevBroker {

    private KafkaDevBroker() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 3) {
            System.err.println("usage: KafkaDevBroker DIR PORT CONTROLLER_PORT");
            System.exit(2);
        }
        Path dir = Path.of(args[0]).toAbsolutePath();
        int port = Integer.parseInt(args[1]);
        int controller = Integer.parseInt(args[2]);
        Files.createDirectories(dir);
        Path data = dir.resolve("data");
        Path props = dir.resolve("server.properties");
        Files.writeString(props, String.join("\n",
                "process.roles=broker,controller",
                "node.id=1",
                "controller.quorum.bootstrap.servers=127.0.0.1:" + controller,
                "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controller,
                "advertised.listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controller,
                "controller.listener.names=CONTROLLER",
                "inter.broker.listener.name=PLAINTEXT",
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                "log.dirs=" + data,
                "num.partitions=3",
                "offsets.topic.replication.factor=1",
                "transaction.state.log.replication.factor=1",
                "transaction.state.log.min.isr=1",
                "share.coordinator.state.topic.replication.factor=1",
                "share.coordinator.state.topic.min.isr=1",
                "group.initial.rebalance.delay.ms=0",
                // events carry their event time as record timestamp (sluice produce publishes 2001's flights):
                // time-based retention would delete them at once, so a dev broker keeps everything
                "log.retention.ms=-1",
                "") , StandardCharsets.UTF_8);
        if (!Files.exists(data.resolve("meta.properties"))) {
            String clusterId = org.apache.kafka.common.Uuid.randomUuid().toString();
            int rc = kafka.tools.StorageTool.execute(new String[] {"format", "-t", clusterId, "-c", props.toString(), "--standalone"},
                    new PrintStream(System.out, true, StandardCharsets.UTF_8));
            if (rc != 0) {
                System.err.println("kafka-dev: formatting " + data + " failed (" + rc + ")");
                System.exit(rc);
            }
        }
        kafka.Kafka.main(new String[] {props.toString()});
    }
}
