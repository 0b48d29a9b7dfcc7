package dev.sluice.hotpath;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ContractSpec;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.RunId;
import dev.sluice.warehouse.Warehouse;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sink's two ways of writing a batch store the same values: PostgreSQL's array statement
 * ({@link PostgresSinkInsert}) and H2's JDBC batch, given events with every contract column type,
 * NULLs, text with tabs, newlines, backslashes, quotes, commas and characters outside the BMP,
 * timestamps to the microsecond, floats and doubles with long fractions. Two batches go through
 * {@link HotSink#apply} on each warehouse kind, the second redelivering half of the first and
 * carrying one id twice; then each sink holds each event once with exactly the decoded values
 * (the row as {@link SinkTable#row} gives it, but {@code _ingested_at}); the tumbling window
 * table (count, sum, min, max, avg, by the upserts, without the lock on PostgreSQL) equals the same
 * aggregates computed here, and the sliding one ({@code distinct_by_content}, under the lock) is
 * the same on both kinds and counts each event in its three windows.
 */
class SinkRoundTripIT {

    @TempDir
    Path home;

    private static final String[] TEXTS = {"plain", "tab\there", "line\nbreak\r\nCRLF", "back\\slash \\N \\.", "\"quoted\", comma",
        "", "unicode é ü 漢字 😀", "'single'", ",,,"};

    @Test
    void arrayAndRowPathsStoreTheSameValues() throws Exception {
        List<String> values = TestPipelines.allTypesJson(60, TEXTS, n -> "-1234.56789012345" + n);
        EmbeddedPostgres postgres = EmbeddedPostgres.builder().start();
        try {
            Map<String, List<List<Object>>> sinks = new HashMap<>();
            Map<String, List<List<Object>>> windows = new HashMap<>();
            List<HotSink.Consumed> all = null;
            for (String kind : List.of("h2", "postgres")) {
                String url = TestPipelines.url(kind, home, postgres);
                PipelineSpec spec = spec(url, TestPipelines.user(kind));
                ContractSpec contract = spec.source("all").orElseThrow().contract();
                EventDecoder decoder = new EventDecoder(contract, "at");
                List<HotSink.Consumed> events = new ArrayList<>();
                for (int n = 0; n < values.size(); n++) {
                    EventDecoder.Decoded d = decoder.decode(("id-" + n).getBytes(StandardCharsets.UTF_8), values.get(n).getBytes(StandardCharsets.UTF_8));
                    assertThat(d.violation()).as("event %d: %s", n, values.get(n)).isNull();
                    events.add(new HotSink.Consumed(d.event(), new HotSink.Position("all", 0, n)));
                }
                all = events;
                try (Warehouse w = Warehouse.open(spec.warehouse(), 2)) {
                    HotSink sink = new HotSink("all", spec.hotPath(), contract);
                    sink.create(w.dsl());
                    List<HotSink.Consumed> second = new ArrayList<>(events.subList(20, 60));
                    second.add(events.get(45)); // one id twice in a batch
                    w.dsl().transaction(c -> sink.apply(c.dsl(), events.subList(0, 40), List.of(), Map.of(0, PartitionRead.at(40)), RunId.newId(), 1));
                    w.dsl().transaction(c -> sink.apply(c.dsl(), second, List.of(), Map.of(0, PartitionRead.at(60)), RunId.newId(), 1));
                    DSLContext dsl = w.dsl();
                    List<Field<?>> fields = new SinkTable(spec.hotPath().sink(), contract).fields();
                    fields.removeIf(f -> f.getName().equals("_ingested_at"));
                    List<List<Object>> rows = new ArrayList<>();
                    dsl.select(fields).from(DSL.table(DSL.name("bronze", "all_events"))).orderBy(DSL.field(DSL.name("_source_pos"))).fetch()
                            .forEach(r -> rows.add(r.intoList()));
                    sinks.put(kind, rows);
                    List<List<Object>> win = new ArrayList<>();
                    dsl.resultQuery("SELECT code, window_start_s, n, total, lo, hi, mean FROM gold.all_tumbling ORDER BY code, window_start_s")
                            .fetch().forEach(r -> win.add(List.of(r.get(0), ((Number) r.get(1)).longValue(), ((Number) r.get(2)).longValue(),
                                    String.valueOf(r.get(3)), String.valueOf(r.get(4)), String.valueOf(r.get(5)), String.valueOf(r.get(6)))));
                    dsl.resultQuery("SELECT code, window_start_s, n, total FROM gold.all_sliding ORDER BY code, window_start_s")
                            .fetch().forEach(r -> win.add(List.of(r.get(0), ((Number) r.get(1)).longValue(), ((Number) r.get(2)).longValue(),
                                    String.valueOf(r.get(3)))));
                    windows.put(kind, win);
                }
            }
            OffsetDateTime any = OffsetDateTime.now(ZoneOffset.UTC);
            List<List<Object>> expected = new ArrayList<>();
            for (HotSink.Consumed c : all) {
                List<Object> row = new ArrayList<>(SinkTable.row(c, any, false));
                row.remove(row.size() - 3); // _ingested_at
                expected.add(row);
            }
            assertThat(sinks.get("h2")).as("H2's sink: each event once, its decoded values").containsExactlyElementsOf(expected);
            assertThat(sinks.get("postgres")).as("PostgreSQL's sink (array statement): each event once, its decoded values").containsExactlyElementsOf(expected);
            List<List<Object>> tumbling = expectedWindows(all);
            assertThat(windows.get("h2").subList(0, tumbling.size())).as("H2's tumbling windows (upserts)").isEqualTo(tumbling);
            assertThat(windows.get("postgres")).as("PostgreSQL's tumbling and sliding windows (upserts)").isEqualTo(windows.get("h2"));
            assertThat(windows.get("h2").subList(tumbling.size(), windows.get("h2").size()).stream().mapToLong(r -> (Long) r.get(2)).sum())
                    .as("events in the sliding windows: each in 3 (distinct contents: every event's differs)").isEqualTo(3L * all.size());
        } finally {
            postgres.close();
        }
    }

    /** Per code and minute: count, sum(l), min(d), max(d), avg(i), computed here from the events (as text, null as "null"). */
    private static List<List<Object>> expectedWindows(List<HotSink.Consumed> events) {
        Map<List<Object>, List<HotSink.Consumed>> byWindow = new TreeMap<>(Comparator.comparing((List<Object> k) -> (String) k.get(0))
                .thenComparing(k -> (Long) k.get(1)));
        for (HotSink.Consumed c : events) {
            long start = Math.floorDiv(c.event().eventTime().getEpochSecond(), 60) * 60;
            byWindow.computeIfAbsent(List.of(c.event().values().get("code"), start), k -> new ArrayList<>()).add(c);
        }
        List<List<Object>> out = new ArrayList<>();
        byWindow.forEach((k, cs) -> {
            Long sum = null;
            Double lo = null;
            Double hi = null;
            long n = 0;
            double iSum = 0;
            for (HotSink.Consumed c : cs) {
                Map<String, Object> v = c.event().values();
                if (v.get("l") != null) {
                    sum = (sum == null ? 0 : sum) + (Long) v.get("l");
                }
                if (v.get("d") != null) {
                    double d = (Double) v.get("d");
                    lo = lo == null ? d : Math.min(lo, d);
                    hi = hi == null ? d : Math.max(hi, d);
                }
                if (v.get("i") != null) {
                    n++;
                    iSum += (Integer) v.get("i");
                }
            }
            out.add(List.of(k.get(0), k.get(1), (long) cs.size(), String.valueOf(sum), String.valueOf(lo), String.valueOf(hi),
                    String.valueOf(n == 0 ? null : iSum / n)));
        });
        return out;
    }

    private PipelineSpec spec(String url, String user) throws Exception {
        return TestPipelines.write(home, "all", TestPipelines.ALL_TYPES, url, user, """
                topic: all
                bootstrap_servers: 127.0.0.1:9
                source: all
                event_time: at
                sink: bronze.all_events
                allowed_lateness: PT1000H
                windows:
                  - {table: gold.all_tumbling, kind: tumbling, size: PT60S, group_by: [code], measures: {n: count, total: sum(l), lo: min(d), hi: max(d), mean: avg(i)}}
                  - {table: gold.all_sliding, kind: sliding, size: PT60S, slide: PT20S, group_by: [code], distinct_by_content: true, measures: {n: count, total: sum(l)}}
                """);
    }
}
