package dev.sluice.app.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.sluice.lineage.EventValidator;
import dev.sluice.lineage.store.LineageRepository;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP server of {@code sluice serve} (the JDK's HttpServer): {@code POST /api/v1/lineage}
 * accepts an OpenLineage event from any tool, as Marquez does (OpenLineage's HTTP transport posts
 * there), validates it ({@link EventValidator}) and stores it: a run event ({@link LineageRepository#storeForeign}),
 * or OpenLineage 2.0's static DatasetEvent or JobEvent ({@link LineageRepository#storeStatic}).
 * Answers: 201 {@code {"stored": true}} stored; 200 {@code {"stored": false, "duplicate": true}} when
 * the same event (run id, event type, event time, job and body) is stored already (a client's
 * retry), and nothing was written; 400 not JSON or not a valid event, with {@code {"errors": ["$.run.runId: …"]}};
 * 401 when a token is set and the request does not carry {@code Authorization: Bearer <token>} (the scheme in any case);
 * 405 another method; 413 a body over {@value #MAX_BODY_BYTES} bytes. Its only write endpoint.
 * Every other {@code /api/v1/…} path is the read-only catalog ({@link CatalogApi}): GET only (405
 * otherwise), 404 with a body saying what was not found and what to try, 401 without the token
 * when one is set. Every answer carries the {@link SecurityHeadersFilter}'s headers. Thread-safe;
 * requests are served by a small fixed pool.
 */
public final class LineageServer implements AutoCloseable {

    /** The largest event accepted, in bytes. */
    public static final int MAX_BODY_BYTES = 5 * 1024 * 1024;
    /** The longest dataset name, run id or backfill id in a catalog path, characters; a longer one is a 400. */
    public static final int MAX_NAME = 1024;

    static {
        // the JDK server's sockets without Nagle: a kept-alive client's next request otherwise waits on the delayed ACK
        // of the last answer (about 40 ms per call on Linux). Read once, when the first JDK HttpServer starts: a value
        // set on the command line (-Dsun.net.httpserver.nodelay=false) is kept.
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
    }
    private static final Logger LOG = LoggerFactory.getLogger(LineageServer.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final LineageRepository store;
    private final EventValidator validator = new EventValidator();
    private final @Nullable String token;
    private final @Nullable CatalogApi catalog;
    private final @Nullable WarehouseMetrics metrics;

    /**
     * Binds (port 0: any free port) and starts serving.
     *
     * @param token the bearer token requests must carry, or null for none (loopback only, say)
     * @throws IOException when the address cannot be bound
     */
    public LineageServer(InetSocketAddress address, LineageRepository store, @Nullable String token) throws IOException {
        this(address, store, token, null, null);
    }

    /**
     * Binds and starts serving the lineage ingest and, when {@code catalog} is given, the read-only catalog API.
     *
     * @throws IOException when the address cannot be bound
     */
    public LineageServer(InetSocketAddress address, LineageRepository store, @Nullable String token, @Nullable CatalogApi catalog,
            @Nullable WarehouseMetrics metrics) throws IOException {
        this.store = store;
        this.token = token == null || token.isBlank() ? null : token;
        this.catalog = catalog;
        this.metrics = metrics;
        this.server = HttpServer.create(address, 0);
        SecurityHeadersFilter.on(server.createContext("/api/v1/lineage", this::lineage));
        SecurityHeadersFilter.on(server.createContext("/api/", this::api));
        SecurityHeadersFilter.on(server.createContext("/actuator/prometheus", this::prometheus));
        SecurityHeadersFilter.on(server.createContext("/", this::page));
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.start();
    }

    /** The port it listens on. */
    public int port() {
        return server.getAddress().getPort();
    }

    private void lineage(HttpExchange x) throws IOException {
        try (x) {
            answerLineage(x);
        }
    }

    private void answerLineage(HttpExchange x) throws IOException {
        try {
            if (!"POST".equals(x.getRequestMethod())) {
                x.getResponseHeaders().set("Allow", "POST");
                reply(x, 405, Map.of("error", "POST an OpenLineage event here"));
                return;
            }
            if (unauthorized(x)) {
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
            if (event.has("run") ? store.storeForeign(event, text) : store.storeStatic(event, text)) {
                reply(x, 201, Map.of("stored", true));
            } else {
                reply(x, 200, Map.of("stored", false, "duplicate", true));
            }
        } catch (RuntimeException e) {
            LOG.warn("lineage ingest failed: {}", e.getMessage(), e);
            reply(x, 500, Map.of("error", "the event could not be stored: " + e.getMessage()));
        }
    }

    /** When a token is configured and the request lacks it: replies 401 and says so. */
    private boolean unauthorized(HttpExchange x) throws IOException {
        if (token == null || authorized(x.getRequestHeaders().getFirst("Authorization"))) {
            return false;
        }
        reply(x, 401, Map.of("error", "this server needs Authorization: Bearer <token>"));
        return true;
    }

    /** GET /api/v1/status, /api/v1/datasets[?q=], /api/v1/datasets/{name}, /api/v1/graph/{name}, /api/v1/runs/{id}, /api/v1/backfills/{id}. */
    private void api(HttpExchange x) throws IOException {
        // the exchange is closed after the answer: a catch of the same try would run after the close
        try (x) {
            answerApi(x);
        }
    }

    private void answerApi(HttpExchange x) throws IOException {
        try {
            if (unauthorized(x)) {
                return;
            }
            if (!"GET".equals(x.getRequestMethod())) {
                // HEAD too: the JDK server would compute the whole answer and warn that a HEAD answer has a length
                x.getResponseHeaders().set("Allow", "GET");
                reply(x, 405, Map.of("error", "the catalog API is read-only (GET); the only write is POST /api/v1/lineage"));
                return;
            }
            String path = x.getRequestURI().getRawPath();
            String[] parts = path.replaceFirst("^/api/v1/?", "").split("/", 2);
            if (catalog == null || !path.startsWith("/api/v1/")) {
                reply(x, 404, Map.of("error", "no such endpoint: " + path, "endpoints", ENDPOINTS));
                return;
            }
            // a path segment, not a form: '+' is a plus (URLDecoder alone reads it as a space)
            String arg = parts.length > 1 ? URLDecoder.decode(parts[1].replace("+", "%2B"), StandardCharsets.UTF_8) : null;
            if (arg != null && arg.length() > MAX_NAME) {
                // no dataset, run or backfill has such a name; refused before any lookup or hint is built for it
                throw new IllegalArgumentException("a name or id is at most " + MAX_NAME + " characters, was " + arg.length());
            }
            switch (parts[0]) {
                case "status" -> {
                    if (arg != null && !arg.isEmpty()) {
                        reply(x, 404, Map.of("error", "no such endpoint: " + path, "endpoints", ENDPOINTS));
                    } else {
                        reply(x, 200, catalog.status());
                    }
                }
                case "datasets" -> {
                    if (arg == null || arg.isEmpty()) {
                        reply(x, 200, catalog.search(query(x, "q")));
                    } else {
                        String size = query(x, "partitions");
                        String before = query(x, "before");
                        found(x, catalog.dataset(arg, before.isEmpty() ? null : partitionKey("before", before),
                                size.isEmpty() ? CatalogApi.PAGE : pageSize(size)), "dataset", arg,
                                "/api/v1/datasets?q=" + arg.substring(arg.lastIndexOf('.') + 1));
                    }
                }
                case "graph" -> found(x, arg == null || arg.isEmpty() ? Optional.empty()
                        : catalog.graph(arg, depth(x, "upstream"), depth(x, "downstream")), "dataset", arg, "/api/v1/datasets?q=text");
                case "runs" -> found(x, arg == null ? Optional.empty() : catalog.run(arg), "run", arg,
                        "a run id from /api/v1/datasets/{name} (partitions[].run_id) or `sluice status`");
                case "backfills" -> found(x, arg == null ? Optional.empty() : catalog.backfill(arg), "backfill", arg,
                        "the backfill id `sluice backfill` printed");
                default -> reply(x, 404, Map.of("error", "no such endpoint: " + path, "endpoints", ENDPOINTS));
            }
        } catch (IllegalArgumentException e) {
            // a malformed %-escape in the name or the query (decoded once, from the raw URI)
            reply(x, 400, Map.of("error", "malformed request: " + e.getMessage()));
        } catch (RuntimeException e) {
            LOG.warn("catalog request failed: {}", e.getMessage(), e);
            reply(x, 500, Map.of("error", "the request failed: " + e.getMessage()));
        }
    }

    /** {@code partitions=N} of a dataset's view. */
    private static int pageSize(String text) {
        try {
            return Integer.parseInt(asciiDigits(text));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("partitions must be a whole number within 1 and " + CatalogApi.MAX_PAGE + ", was " + text);
        }
    }

    /** {@code upstream=N} or {@code downstream=N} of a graph: {@value LineageGraph#DEFAULT_DEPTH} when not given. */
    private static int depth(HttpExchange x, String parameter) {
        String text = query(x, parameter);
        if (text.isEmpty()) {
            return LineageGraph.DEFAULT_DEPTH;
        }
        try {
            return Integer.parseInt(asciiDigits(text));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(parameter + " must be a whole number within 0 and " + LineageGraph.MAX_DEPTH + ", was " + text);
        }
    }

    /** {@code text} stripped when it is 1–9 ASCII digits (Integer.parseInt alone takes any Unicode digit, e.g. full-width ５). */
    private static String asciiDigits(String text) {
        String t = text.strip();
        if (!t.matches("[0-9]{1,9}")) {
            throw new NumberFormatException(text);
        }
        return t;
    }

    /** A query parameter naming a partition ({@link Partition#parseAny}: a day, an hour, a month, a fire instant or none). */
    private static String partitionKey(String parameter, String text) {
        try {
            return dev.sluice.core.Partition.parseAny(text).key();
        } catch (dev.sluice.core.SluiceException e) {
            throw new IllegalArgumentException(parameter + " must be a partition key: " + e.getMessage());
        }
    }

    /** GET /actuator/prometheus: {@link WarehouseMetrics} in the Prometheus text format. */
    private void prometheus(HttpExchange x) throws IOException {
        try (x) {
            answerPrometheus(x);
        }
    }

    private void answerPrometheus(HttpExchange x) throws IOException {
        try {
            if (unauthorized(x)) {
                return;
            }
            if (!"GET".equals(x.getRequestMethod())) {
                x.getResponseHeaders().set("Allow", "GET");
                reply(x, 405, Map.of("error", "metrics are read with GET"));
                return;
            }
            if (metrics == null) {
                reply(x, 404, Map.of("error", "this server exposes no metrics"));
                return;
            }
            byte[] text = metrics.scrape().getBytes(StandardCharsets.UTF_8);
            x.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
            x.sendResponseHeaders(200, text.length);
            x.getResponseBody().write(text);
        } catch (RuntimeException e) {
            LOG.warn("metrics scrape failed: {}", e.getMessage(), e);
            reply(x, 500, Map.of("error", "the scrape failed: " + e.getMessage()));
        }
    }

    /** The page's files by path; every file index.html loads is here (an unknown path is a 404, never a file lookup). */
    private static final Map<String, String> PAGE_FILES = pageFiles("index.html", "app.css", "cytoscape.min.js", "common.js",
            "home.js", "graph.js", "dataset.js", "run.js", "app.js");

    private static Map<String, String> pageFiles(String... files) {
        Map<String, String> byPath = new HashMap<>(Map.of("/", "index.html"));
        for (String f : files) {
            byPath.put("/" + f, f);
        }
        return Map.copyOf(byPath);
    }

    /** GET / and its assets: the page, from the jar's {@code static/} folder (it holds no data: the API calls carry the token). */
    private void page(HttpExchange x) throws IOException {
        try (x) {
            String file = PAGE_FILES.get(x.getRequestURI().getPath());
            if (file == null) {
                reply(x, 404, Map.of("error", "no such page: " + x.getRequestURI().getPath(), "endpoints", ENDPOINTS));
                return;
            }
            if (!"GET".equals(x.getRequestMethod())) {
                x.getResponseHeaders().set("Allow", "GET");
                reply(x, 405, Map.of("error", "the page is read with GET"));
                return;
            }
            byte[] body;
            try (InputStream in = LineageServer.class.getResourceAsStream("/static/" + file)) {
                if (in == null) {
                    reply(x, 404, Map.of("error", "this build has no page (the web build did not run)"));
                    return;
                }
                body = in.readAllBytes();
            }
            String type = file.endsWith(".html") ? "text/html" : file.endsWith(".css") ? "text/css" : "text/javascript";
            x.getResponseHeaders().set("Content-Type", type + "; charset=utf-8");
            x.getResponseHeaders().set("Cache-Control", "no-cache");
            x.sendResponseHeaders(200, body.length);
            x.getResponseBody().write(body);
        }
    }

    private static final List<String> ENDPOINTS = List.of("GET /api/v1/status", "GET /api/v1/datasets?q=text", "GET /api/v1/datasets/{name}",
            "GET /api/v1/graph/{name}?upstream=N&downstream=N", "GET /api/v1/runs/{id}", "GET /api/v1/backfills/{id}", "POST /api/v1/lineage");

    private static void found(HttpExchange x, Optional<Map<String, Object>> body, String what, @Nullable String id, String hint)
            throws IOException {
        if (body.isPresent()) {
            reply(x, 200, body.get());
        } else {
            reply(x, 404, Map.of("error", "no " + what + (id == null ? " id given" : " '" + id + "'") + " is recorded here", "try", hint));
        }
    }

    private static String query(HttpExchange x, String name) {
        String q = x.getRequestURI().getRawQuery();
        if (q == null) {
            return "";
        }
        for (String pair : q.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0 && pair.substring(0, eq).equals(name)) {
                return URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            }
        }
        return "";
    }

    /**
     * Whether {@code header} is {@code Bearer <token>}: the scheme in any case (RFC 7235 §2.1: {@code bearer}
     * and {@code BEARER} too), one or more spaces, then the token exactly, compared in constant time.
     */
    private boolean authorized(@Nullable String header) {
        String scheme = "Bearer ";
        if (header == null || !header.regionMatches(true, 0, scheme, 0, scheme.length())) {
            return false;
        }
        String given = header.substring(scheme.length()).replaceFirst("^ +", "");
        return MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8), token.getBytes(StandardCharsets.UTF_8));
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
        if (server.getExecutor() instanceof ExecutorService e) {
            e.shutdownNow();
        }
    }
}
