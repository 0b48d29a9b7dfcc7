package dev.sluice.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.config.WarehouseSpec;
import dev.sluice.lineage.store.LineageRepository;
import dev.sluice.warehouse.Warehouse;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * Lineage at scale (issue #27): for each backend (an H2 file, embedded PostgreSQL) and each size
 * of store ({@link LineageStoreGenerator}: 10k, 100k, 1M recorded runs), times {@value #CALLS}
 * calls after {@value #WARM_UPS} warm-ups of each query a data owner makes: the downstream closure
 * of {@code raw.p000_orders} (depth 10, as {@code sluice lineage downstream}), {@code sluice
 * lineage impact raw.p000_orders --partition} of an hour in the middle of the store, and the catalog
 * API's dataset view of {@code silver.p000_orders} over HTTP ({@code sluice serve}'s server started in
 * this JVM, one kept-alive client). Reports p50 and p99 in ms and what each call found.
 * Run alone: {@code java -cp … dev.sluice.bench.LineageScaleBench DIR [sizes] [backends]}.
 */
public final class LineageScaleBench {

    /** Timed calls per query. */
    public static final int CALLS = 200;
    /** Untimed calls first. */
    public static final int WARM_UPS = 20;
    /** The dataset whose closure, impact and view are timed. */
    static final String RAW = "raw.p000_orders";
    static final String SILVER = "silver.p000_orders";
    private static final ObjectMapper JSON = new ObjectMapper();

    private LineageScaleBench() {
    }

    /** One query at one size on one backend: p50, p99 (ms) and what the call found. */
    public record Timing(String backend, long runs, String query, double p50Ms, double p99Ms, int found) {
    }

    /** One store: how long it took to write, what it holds, and its timings. */
    public record Size(String backend, LineageStoreGenerator.Store store, double generatedS, List<Timing> timings) {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Files.createDirectories(Path.of(args.length > 0 ? args[0] : "target/lineage-scale"));
        List<Long> sizes = args.length > 1 ? Arrays.stream(args[1].split(",")).map(Long::parseLong).toList() : List.of(10_000L, 100_000L, 1_000_000L);
        List<String> backends = args.length > 2 ? List.of(args[2].split(",")) : List.of("h2", "postgresql");
        for (Size s : measure(dir, sizes, backends)) {
            System.out.printf(Locale.ROOT, "%s %,d runs (%,d edges, graph %,d) written in %.1f s%n", s.backend(), s.store().runs(),
                    s.store().edges(), s.store().graphEdges(), s.generatedS());
            for (Timing t : s.timings()) {
                System.out.printf(Locale.ROOT, "  %-20s p50 %8.2f ms  p99 %8.2f ms  (%d found)%n", t.query(), t.p50Ms(), t.p99Ms(), t.found());
            }
        }
    }

    /** Every size on every backend ({@code h2}, {@code postgresql}), each store fresh, under {@code dir}. */
    public static List<Size> measure(Path dir, List<Long> sizes, List<String> backends) throws Exception {
        List<Size> out = new ArrayList<>();
        for (String backend : backends) {
            if (backend.equals("h2")) {
                for (long n : sizes) {
                    String url = "jdbc:h2:file:" + dir.resolve("lineage-" + n).toAbsolutePath() + ";DB_CLOSE_ON_EXIT=FALSE";
                    out.add(one("h2", new WarehouseSpec(url, "sa", ""), n));
                }
            } else if (backend.equals("postgresql")) {
                try (EmbeddedPostgres pg = EmbeddedPostgres.builder().setDataDirectory(dir.resolve("postgres")).setCleanDataDirectory(true).start()) {
                    for (long n : sizes) {
                        try (Connection c = pg.getPostgresDatabase().getConnection()) {
                            c.createStatement().execute("CREATE DATABASE lineage_" + n);
                        }
                        out.add(one("postgresql", new WarehouseSpec(pg.getJdbcUrl("postgres", "lineage_" + n) + "&reWriteBatchedInserts=true",
                                "postgres", ""), n));
                    }
                }
            } else {
                throw new IllegalArgumentException("backend: h2 or postgresql, not " + backend);
            }
        }
        return out;
    }

    private static Size one(String backend, WarehouseSpec spec, long runs) throws Exception {
        try (Warehouse w = Warehouse.open(spec)) {
            long t0 = System.nanoTime();
            LineageStoreGenerator.Store store = LineageStoreGenerator.generate(w, runs);
            double generated = (System.nanoTime() - t0) / 1e9;
            LineageRepository repo = new LineageRepository(w.dsl());
            String hour = LineageStoreGenerator.START.plusHours(store.hours() / 2).format(java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH"));
            List<Timing> timings = new ArrayList<>();
            timings.add(time(backend, runs, "downstream closure", () -> repo.downstream(RAW, 10).size()));
            timings.add(time(backend, runs, "lineage impact", () -> repo.impact(RAW, hour).size()));
            try (Server server = Server.start(w, repo)) {
                HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
                HttpRequest get = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port + "/api/v1/datasets/" + SILVER)).build();
                timings.add(time(backend, runs, "dataset view (HTTP)", () -> {
                    HttpResponse<String> r = http.send(get, HttpResponse.BodyHandlers.ofString());
                    if (r.statusCode() != 200) {
                        throw new IllegalStateException("GET /api/v1/datasets/" + SILVER + ": " + r.statusCode() + " " + r.body());
                    }
                    JsonNode view = JSON.readTree(r.body());
                    return view.get("upstream").size() + view.get("downstream").size() + view.get("partitions").size();
                }));
            }
            return new Size(backend, store, generated, timings);
        }
    }

    /**
     * {@code sluice serve}'s server (LineageServer with its CatalogApi, no token, no metrics) started
     * in this JVM from {@code app/target/sluice.jar}: the app module is a Spring Boot jar, its
     * classes under {@code BOOT-INF/classes}, out of the bench's compile path; everything else they
     * use (jOOQ, the lineage store, Jackson) is on the bench's classpath and shared with it.
     */
    private record Server(AutoCloseable server, int port, java.net.URLClassLoader loader) implements AutoCloseable {

        static Server start(Warehouse w, LineageRepository repo) throws Exception {
            Path jar = HotPathBench.root().resolve("app/target/sluice.jar");
            var loader = new java.net.URLClassLoader(new java.net.URL[] {new java.net.URL("jar:" + jar.toUri() + "!/BOOT-INF/classes/")},
                    LineageScaleBench.class.getClassLoader());
            Class<?> catalogType = loader.loadClass("dev.sluice.app.serve.CatalogApi");
            Class<?> serverType = loader.loadClass("dev.sluice.app.serve.LineageServer");
            Object catalog = catalogType.getConstructor(org.jooq.DSLContext.class, loader.loadClass("dev.sluice.config.PipelineSpec"), Clock.class)
                    .newInstance(w.dsl(), null, Clock.systemUTC());
            Object server = serverType.getConstructor(InetSocketAddress.class, LineageRepository.class, String.class, catalogType,
                    loader.loadClass("dev.sluice.app.serve.WarehouseMetrics")).newInstance(new InetSocketAddress("127.0.0.1", 0), repo, null, catalog, null);
            return new Server((AutoCloseable) server, (Integer) serverType.getMethod("port").invoke(server), loader);
        }

        @Override
        public void close() throws Exception {
            server.close();
            loader.close();
        }
    }

    private static Timing time(String backend, long runs, String query, Callable<Integer> call) throws Exception {
        int found = 0;
        for (int i = 0; i < WARM_UPS; i++) {
            found = call.call();
        }
        double[] ms = new double[CALLS];
        for (int i = 0; i < CALLS; i++) {
            long t = System.nanoTime();
            int n = call.call();
            ms[i] = (System.nanoTime() - t) / 1e6;
            if (n != found) {
                throw new IllegalStateException(query + " found " + n + ", then " + found);
            }
        }
        Arrays.sort(ms);
        return new Timing(backend, runs, query, ms[CALLS / 2], ms[(int) Math.ceil(CALLS * 0.99) - 1], found);
    }
}
