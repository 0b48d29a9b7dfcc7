package dev.sluice.lineage.internal.openlineage;

import dev.sluice.config.LineageSpec;
import dev.sluice.lineage.LineageEmitter;
import io.openlineage.client.OpenLineage;
import io.openlineage.client.OpenLineageClient;
import io.openlineage.client.OpenLineageClientUtils;
import io.openlineage.client.transports.ApiKeyTokenProvider;
import io.openlineage.client.transports.ConsoleTransport;
import io.openlineage.client.transports.FileConfig;
import io.openlineage.client.transports.FileTransport;
import io.openlineage.client.transports.HttpConfig;
import io.openlineage.client.transports.HttpTransport;
import io.openlineage.client.transports.KafkaConfig;
import io.openlineage.client.transports.KafkaTransport;
import io.openlineage.client.transports.NoopTransport;
import io.openlineage.client.transports.Transport;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Emits run events through the OpenLineage Java client, asynchronously: {@link #emit} only offers
 * the event to a bounded queue ({@code lineage.queue}); one daemon thread maps and sends them.
 * When the queue is full the event is dropped, counted and logged (a lineage outage never slows a
 * job); a send that fails is counted and logged, never thrown. {@link #close()} waits up to
 * {@value #DRAIN_SECONDS} s for the queue to drain. Thread-safe.
 */
public final class OpenLineageEmitter implements LineageEmitter {

    static final long DRAIN_SECONDS = 10;
    private static final Logger LOG = LoggerFactory.getLogger(OpenLineageEmitter.class);
    private static final URI PRODUCER = URI.create("https://github.com/sluice-dev/sluice");

    /** Events to send; an empty element wakes the sender when closing (so that close never waits out a poll). */
    private final BlockingQueue<Optional<OpenLineage.RunEvent>> queue;
    private final OpenLineageClient client;
    private final EventMapper mapper;
    private final Thread sender;
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong sent = new AtomicLong();
    private final Store store;
    private volatile boolean closing;

    /**
     * @param version Sluice's version, for the processing_engine facet
     */
    public OpenLineageEmitter(LineageSpec spec, String version) {
        this(spec, version, transport(spec), Store.NONE);
    }

    OpenLineageEmitter(LineageSpec spec, String version, Transport transport) {
        this(spec, version, transport, Store.NONE);
    }

    OpenLineageEmitter(LineageSpec spec, String version, Transport transport, Store store) {
        this.store = store;
        this.queue = new ArrayBlockingQueue<>(spec.queue());
        this.client = new OpenLineageClient(transport);
        this.mapper = new EventMapper(PRODUCER, spec.namespace(), version);
        this.sender = new Thread(this::send, "sluice-lineage");
        this.sender.setDaemon(true);
        this.sender.start();
    }

    /** A lineage emitter for {@code spec} that also stores every event: NOOP for transport none without a store. */
    public static LineageEmitter of(LineageSpec spec, String version, Store store) {
        if (spec.transport() == LineageSpec.Transport.NONE && store == Store.NONE) {
            return LineageEmitter.NOOP;
        }
        return new OpenLineageEmitter(spec, version, transport(spec), store);
    }

    private static Transport transport(LineageSpec spec) {
        return switch (spec.transport()) {
            case NONE -> new NoopTransport();
            case CONSOLE -> new ConsoleTransport();
            case FILE -> {
                Path file = Path.of(spec.file());
                try {
                    if (file.getParent() != null) {
                        Files.createDirectories(file.getParent());
                    }
                } catch (IOException e) {
                    LOG.warn("lineage: cannot create {}: {}", file.getParent(), e.getMessage());
                }
                yield new FileTransport(new FileConfig(file.toAbsolutePath().toString()));
            }
            case KAFKA -> {
                Properties props = new Properties();
                props.put("bootstrap.servers", spec.kafkaBootstrap());
                props.put("key.serializer", "org.apache.kafka.common.serialization.StringSerializer");
                props.put("value.serializer", "org.apache.kafka.common.serialization.StringSerializer");
                props.put("acks", "all");
                props.put("delivery.timeout.ms", "10000");
                props.put("request.timeout.ms", "5000");
                props.put("max.block.ms", "5000");
                yield new KafkaTransport(
                        new KafkaConfig(spec.topic(), null, props));
            }
            case HTTP -> {
                HttpConfig config = new HttpConfig();
                config.setUrl(URI.create(spec.url()));
                config.setEndpoint("/api/v1/lineage");
                config.setTimeoutInMillis(5000);
                if (!spec.apiKey().isEmpty()) {
                    ApiKeyTokenProvider token = new ApiKeyTokenProvider();
                    token.setApiKey(spec.apiKey());
                    config.setAuth(token);
                }
                yield new HttpTransport(config);
            }
        };
    }

    /**
     * Maps the event, stores it (on the caller's thread, so that Sluice's own store is complete
     * whatever the transport does) and queues it for the transport.
     */
    @Override
    public void emit(RunEvent event) {
        OpenLineage.RunEvent mapped;
        try {
            mapped = mapper.map(event);
            store.store(event, OpenLineageClientUtils.toJson(mapped));
        } catch (RuntimeException x) {
            long n = failed.incrementAndGet();
            LOG.warn("lineage: storing the {} event of {} failed ({} failed so far): {}", event.type(), event.job(), n, x.getMessage());
            return;
        }
        if (closing || !queue.offer(Optional.of(mapped))) {
            long n = dropped.incrementAndGet();
            LOG.warn("lineage: queue full or closed, dropped the {} event of {} ({} dropped so far)", event.type(), event.job(), n);
        }
    }

    private void send() {
        while (!closing || !queue.isEmpty()) {
            OpenLineage.RunEvent e;
            try {
                Optional<OpenLineage.RunEvent> item = queue.poll(200, TimeUnit.MILLISECONDS);
                if (item == null || item.isEmpty()) {
                    continue;
                }
                e = item.get();
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
                return;
            }
            try {
                client.emit(e);
                sent.incrementAndGet();
            } catch (RuntimeException x) {
                long n = failed.incrementAndGet();
                LOG.warn("lineage: sending the {} event of {} failed ({} failed so far): {}", e.getEventType(), e.getJob().getName(), n,
                        x.getMessage());
            }
        }
    }

    /** Events queued now, and sent, dropped (queue full or closed) and failed (store or transport error) so far. */
    @Override
    public Stats stats() {
        return new Stats(queue.stream().filter(Optional::isPresent).count(), sent.get(), dropped.get(), failed.get());
    }

    @Override
    public void close() {
        closing = true;
        queue.offer(Optional.empty()); // wakes a sender waiting for an event; when the queue is full it is not waiting
        try {
            sender.join(TimeUnit.SECONDS.toMillis(DRAIN_SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (sender.isAlive()) {
            sender.interrupt();
            LOG.warn("lineage: {} event(s) not sent within {} s of closing", queue.size(), DRAIN_SECONDS);
        }
        if (dropped.get() > 0 || failed.get() > 0) {
            LOG.warn("lineage: {} event(s) sent, {} dropped (queue full), {} failed (transport or store); all were stored unless a store failure says otherwise",
                    sent.get(), dropped.get(), failed.get());
        }
        try {
            client.close();
        } catch (Exception e) {
            LOG.warn("lineage: closing the transport failed: {}", e.getMessage());
        }
    }
}
