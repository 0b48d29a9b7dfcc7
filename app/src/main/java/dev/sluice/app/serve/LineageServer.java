package dev.sluice.app.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.sluice.batch.lineage.LineageRepository;
import dev.sluice.lineage.EventValidator;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP server of {@code sluice serve} (the JDK's HttpServer): {@code POST /api/v1/lineage}
 * accepts an OpenLineage event from any tool, as Marquez does (OpenLineage's HTTP transport posts
 * there), validates it ({@link EventValidator}) and stores it ({@link LineageRepository#storeForeign}).
 * Answers: 201 stored; 400 not JSON or not a valid event, with {@code {"errors": ["$.run.runId: …"]}};
 * 401 when a token is set and the request does not carry {@code Authorization: Bearer <token>};
 * 405 another method; 413 a body over {@value #MAX_BODY_BYTES} bytes. Its only write endpoint.
 * Thread-safe; requests are served by a small fixed pool.
 */
public final class LineageServer implements AutoCloseable {

    /** The largest event accepted, in bytes. */
    public static final int MAX_BODY_BYTES = 5 * 1024 * 1024;
    private static final Logger LOG = LoggerFactory.getLogger(LineageServer.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final LineageRepository store;
    private final EventValidator validator = new EventValidator();
    private final @Nullable String token;

    /**
     * Binds (port 0: any free port) and starts serving.
     *
     * @param token the bearer token requests must carry, or null for none (loopback only, say)
     * @throws IOException when the address cannot be bound
     */
    public LineageServer(InetSocketAddress address, LineageRepository store, @Nullable String token) throws IOException {
        this.store = store;
        this.token = token == null || token.isBlank() ? null : token;
        this.server = HttpServer.create(address, 0);
        server.createContext("/api/v1/lineage", this::lineage);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.start();
    }

    /** The port it listens on. */
    public int port() {
        return server.getAddress().getPort();
    }

    private void lineage(HttpExchange x) throws IOException {
        try (x) {
            if (!"POST".equals(x.getRequestMethod())) {
                reply(x, 405, Map.of("error", "POST an OpenLineage event here"));
                return;
            }
            if (token != null && !authorized(x.getRequestHeaders().getFirst("Authorization"))) {
                reply(x, 401, Map.of("error", "this server needs Authorization: Bearer <token>"));
                return;
            }
            byte[] body;
            try (InputStream in = x.getRequestBody()) {
                body = in.readNBytes(MAX_BODY_BYTES + 1);
            }
            if (body.length > MAX_BODY_BYTES) {
                reply(x, 413, Map.of("error", "an event is at most " + MAX_BODY_BYTES + " bytes"));
                return;
            }
            String text = new String(body, StandardCharsets.UTF_8);
            JsonNode event;
            try {
                event = JSON.readTree(text);
            } catch (IOException e) {
                reply(x, 400, Map.of("errors", List.of("not JSON: " + e.getMessage().lines().findFirst().orElse(""))));
                return;
            }
            List<String> errors = event == null || !event.isObject() ? List.of("$: an OpenLineage event is a JSON object")
                    : validator.violations(event);
            if (!errors.isEmpty()) {
                reply(x, 400, Map.of("errors", errors));
                return;
            }
            if (!event.has("run")) {
                reply(x, 201, Map.of("stored", false, "note", "dataset and job events are accepted but not stored yet"));
                return;
            }
            store.storeForeign(event, text);
            reply(x, 201, Map.of("stored", true));
        } catch (RuntimeException e) {
            LOG.warn("lineage ingest failed: {}", e.getMessage(), e);
            reply(x, 500, Map.of("error", "the event could not be stored: " + e.getMessage()));
        }
    }

    private boolean authorized(@Nullable String header) {
        String expected = "Bearer " + token;
        return header != null && MessageDigest.isEqual(header.getBytes(StandardCharsets.UTF_8), expected.getBytes(StandardCharsets.UTF_8));
    }

    private static void reply(HttpExchange x, int status, Object body) throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(body);
        x.getResponseHeaders().set("Content-Type", "application/json");
        x.sendResponseHeaders(status, bytes.length);
        x.getResponseBody().write(bytes);
    }

    @Override
    public void close() {
        server.stop(1);
        if (server.getExecutor() instanceof java.util.concurrent.ExecutorService e) {
            e.shutdownNow();
        }
    }
}
