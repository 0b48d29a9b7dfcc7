package dev.sluice.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Kafka Connect standalone worker ({@code org.apache.kafka.connect.cli.ConnectStandalone}) with
 * one Debezium JDBC sink connector, as a child JVM on the peer's own classpath; stopped (SIGTERM,
 * then SIGKILL after 30 s) on close. Its settings are written to {@code dir} beside its log.
 *
 * <p>Settings: tasks = the topic's 3 partitions; {@code consumer.max.poll.records} and the
 * connector's {@code batch.size} both {@code batch} (Debezium's documented tuning: records are
 * flushed per batch); upsert by {@code event_id}; the table exists (no schema evolution).
 */
final class ConnectWorker implements AutoCloseable {

    private final Process process;
    private final Path log;

    private ConnectWorker(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    static ConnectWorker start(Path lib, Path dir, String bootstrap, int pgPort, String topic, int batch) throws IOException {
        Files.createDirectories(dir);
        Path worker = dir.resolve("worker.properties");
        Files.writeString(worker, String.join("\n",
                "bootstrap.servers=" + bootstrap,
                "key.converter=org.apache.kafka.connect.storage.StringConverter",
                "value.converter=org.apache.kafka.connect.json.JsonConverter",
                "value.converter.schemas.enable=true",
                "offset.storage.file.filename=" + dir.resolve("connect.offsets"),
                "offset.flush.interval.ms=1000",
                "listeners=http://127.0.0.1:" + ConnectPeerBench.freePort(),
                "consumer.max.poll.records=" + batch,
                "consumer.auto.offset.reset=earliest", ""));
        Path sink = dir.resolve("sink.properties");
        Files.writeString(sink, String.join("\n",
                "name=flights-jdbc-sink",
                "connector.class=io.debezium.connector.jdbc.JdbcSinkConnector",
                "tasks.max=3",
                "topics=" + topic,
                "connection.url=jdbc:postgresql://127.0.0.1:" + pgPort + "/postgres?reWriteBatchedInserts=true",
                "connection.username=postgres",
                "connection.password=postgres",
                "insert.mode=upsert",
                "primary.key.mode=record_value",
                "primary.key.fields=event_id",
                "schema.evolution=none",
                "collection.name.format=" + ConnectPeerBench.TABLE,
                "batch.size=" + batch,
                "use.time.zone=UTC", ""));
        Path log = dir.resolve("worker.log");
        Process p = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx2g",
                "-cp", lib.resolve("*").toString(), "org.apache.kafka.connect.cli.ConnectStandalone", worker.toString(), sink.toString()))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        return new ConnectWorker(p, log);
    }

    long pid() {
        return process.pid();
    }

    boolean alive() {
        return process.isAlive();
    }

    Path log() {
        return log;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}
