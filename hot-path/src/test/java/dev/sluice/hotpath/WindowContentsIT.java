package dev.sluice.hotpath;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ContractSpec;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.WindowSpec;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.RunId;
import dev.sluice.warehouse.Warehouse;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code distinct_by_content} tumbling window written by two writers at once: 1,000 contents,
 * each sent 1 to 4 times under distinct event ids (4,000 events shuffled), split over two
 * partitions, each partition's events applied by its own thread in 40 transactions of 50 events,
 * both threads released together. On PostgreSQL the batches claim their contents
 * ({@link WindowContents}, no table lock), on H2 they take the window's lock and ask the sink.
 * Both end with every window counting each of its contents once: count and sum equal those
 * computed here over the distinct contents; on PostgreSQL the contents table holds the 1,000
 * hashes, and a second table created over the filled sink (a window from before the contents
 * table) is seeded with the same 1,000.
 */
class WindowContentsIT {

    @TempDir
    Path home;

    private static final int CONTENTS = 1_000;
    private static final int BATCH = 50;

    @Test
    void concurrentBatchesCountEachContentOnce() throws Exception {
        Random random = new Random(20261204L);
        List<String> contents = new ArrayList<>();
        for (int c = 0; c < CONTENTS; c++) {
            contents.add("{\"at\": \"2001-01-01T00:%02d:%02d\", \"code\": \"%s\", \"v\": %d}"
                    .formatted(c / 60 % 20, c % 60, List.of("A", "B", "C").get(c % 3), c * 7 - 1_000));
        }
        List<String> sent = new ArrayList<>();
        for (String c : contents) {
            for (int k = 1 + random.nextInt(4); k > 0; k--) {
                sent.add(c);
            }
        }
        Collections.shuffle(sent, random);
        TreeMap<List<Object>, long[]> expected = new TreeMap<>((a, b) -> a.toString().compareTo(b.toString()));
        EmbeddedPostgres postgres = EmbeddedPostgres.builder().start();
        try {
            for (String kind : List.of("postgres", "h2")) {
                String url = TestPipelines.url(kind, home, postgres);
                PipelineSpec spec = TestPipelines.write(home, "dup", TestPipelines.CODED_VALUES, url, TestPipelines.user(kind),
                        TestPipelines.hotPath("dup", "PT1000H", """
                        - {table: gold.dup_windows, kind: tumbling, size: PT60S, group_by: [code], distinct_by_content: true, measures: {n: count, total: sum(v)}}
                        """));
                ContractSpec contract = spec.source("dup").orElseThrow().contract();
                EventDecoder decoder = new EventDecoder(contract, "at");
                List<List<HotSink.Consumed>> partitions = List.of(new ArrayList<>(), new ArrayList<>());
                for (int n = 0; n < sent.size(); n++) {
                    EventDecoder.Decoded d = decoder.decode(("e-" + n).getBytes(StandardCharsets.UTF_8), sent.get(n).getBytes(StandardCharsets.UTF_8));
                    assertThat(d.violation()).isNull();
                    List<HotSink.Consumed> p = partitions.get(n % 2);
                    p.add(new HotSink.Consumed(d.event(), new HotSink.Position("dup", n % 2, p.size())));
                }
                if (expected.isEmpty()) {
                    Map<String, EventDecoder.Event> distinct = new HashMap<>();
                    partitions.forEach(p -> p.forEach(c -> distinct.putIfAbsent(c.event().contentHash(), c.event())));
                    assertThat(distinct).hasSize(CONTENTS);
                    distinct.values().forEach(e -> {
                        long[] w = expected.computeIfAbsent(List.of(e.values().get("code"), e.eventTime().getEpochSecond() / 60 * 60), k -> new long[2]);
                        w[0]++;
                        w[1] += (Long) e.values().get("v");
                    });
                }
                try (Warehouse w = Warehouse.open(spec.warehouse(), 4)) {
                    HotSink sink = new HotSink("dup", spec.hotPath(), contract);
                    sink.create(w.dsl());
                    ExecutorService pool = Executors.newFixedThreadPool(2);
                    try {
                        CyclicBarrier start = new CyclicBarrier(2);
                        List<Future<?>> writers = new ArrayList<>();
                        for (int p = 0; p < 2; p++) {
                            int partition = p;
                            List<HotSink.Consumed> events = partitions.get(p);
                            writers.add(pool.submit(() -> {
                                start.await(30, TimeUnit.SECONDS);
                                for (int from = 0; from < events.size(); from += BATCH) {
                                    int to = Math.min(events.size(), from + BATCH);
                                    List<HotSink.Consumed> batch = events.subList(from, to);
                                    w.dsl().transaction(c -> sink.apply(c.dsl(), batch, List.of(),
                                            Map.of(partition, PartitionRead.at(to)), RunId.newId(), 2));
                                }
                                return null;
                            }));
                        }
                        for (Future<?> f : writers) {
                            f.get(5, TimeUnit.MINUTES);
                        }
                    } finally {
                        pool.shutdownNow();
                    }
                    Map<List<Object>, long[]> windows = new TreeMap<>(expected.comparator());
                    w.dsl().resultQuery("SELECT code, window_start_s, n, total FROM gold.dup_windows").fetch().forEach(r ->
                            windows.put(List.of(r.get(0, String.class), r.get(1, Long.class)), new long[] {r.get(2, Long.class), r.get(3, Long.class)}));
                    assertThat(windows.keySet()).as(kind).containsExactlyElementsOf(expected.keySet());
                    expected.forEach((k, v) -> assertThat(windows.get(k)).as(kind + " " + k).containsExactly(v));
                    assertThat(w.dsl().resultQuery("SELECT COUNT(*) FROM bronze.dup_events").fetchOne(0, Long.class)).isEqualTo(sent.size());
                    if (kind.equals("postgres")) {
                        assertThat(w.dsl().resultQuery("SELECT COUNT(*) FROM gold.dup_windows_content_keys").fetchOne(0, Long.class))
                                .isEqualTo(CONTENTS);
                        WindowSpec ws = spec.hotPath().windows().get(0);
                        WindowContents seeded = new WindowContents(new WindowSpec(new DatasetRef("gold", "dup_later"), ws.kind(), ws.size(),
                                ws.slide(), ws.gap(), ws.groupBy(), true, ws.measures()), new SinkTable(spec.hotPath().sink(), contract).table());
                        seeded.create(w.dsl());
                        assertThat(w.dsl().resultQuery("SELECT COUNT(*) FROM gold.dup_later_content_keys").fetchOne(0, Long.class))
                                .as("seeded from the sink").isEqualTo(CONTENTS);
                        assertThat(w.dsl().resultQuery("SELECT COUNT(*) FROM gold.dup_later_content_keys JOIN gold.dup_windows_content_keys"
                                + " USING (_content_key)").fetchOne(0, Long.class))
                                .as("the seed's keys (from the sink's hashes, in SQL) are the claims' keys (from the events' hashes, in Java)")
                                .isEqualTo(CONTENTS);
                    }
                }
            }
        } finally {
            postgres.close();
        }
    }
}
