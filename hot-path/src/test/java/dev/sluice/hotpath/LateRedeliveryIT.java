package dev.sluice.hotpath;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ContractSpec;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.RunId;
import dev.sluice.warehouse.Warehouse;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Events already in the sink change nothing when they come again, on PostgreSQL (whose array
 * insert says which ids it wrote, no lookup), on PostgreSQL through pgjdbc's
 * {@code reWriteBatchedInserts=true} (whose row-path batches report no counts, so that only the
 * lookup keeps a re-sent id out) and on H2 (which looks the ids up first). One
 * partition, allowed lateness 10 s, two tumbling windows of 60 s by code counting events, one
 * {@code distinct_by_content}:
 * <ol>
 *   <li>batch 1: e1 at 00:00:05 (A), e2 at 00:01:40 (A): the watermark moves to 00:01:30;</li>
 *   <li>batch 2: e3 at 00:00:50 (A, too late), e4 at 00:02:10 (B);</li>
 *   <li>batch 3: e3, e1 and e4 again at later offsets (a producer's retry, a re-publish), and e5
 *       at 00:00:20 (B, too late), new;</li>
 *   <li>batch 4, one id twice in a batch (a producer's retry): e6 at 00:02:20 (B, on time), then
 *       e6 at 00:00:30 (too late); e7 at 00:00:40 (A, too late) twice;</li>
 *   <li>batches 5 and 6: e8 at +10000-01-01T00:00 (A), then e8 again with e9 at
 *       +10000-01-01T00:00:30 (A): a year the arrays' text cannot carry, so on PostgreSQL too the
 *       batch takes the row path, which looks the ids up first (two rows, so that a rewriting
 *       driver really rewrites the batch and reports no counts).</li>
 * </ol>
 * Expected by hand: the sink holds e1..e9 once, e3, e5 and e7 marked late, e6 not (the sink keeps
 * an id's first occurrence, and only that one is judged); the quarantine holds exactly three
 * too_late records (e3 once, e5, e7 once); both windows, with and without
 * {@code distinct_by_content}, are A 0-60 n=1, A 60-120 n=1, B 120-180 n=2 (e4 and e6; none of the
 * late ones, the re-sent e1 and e4 not again) and e8's window n=2 (e8 once, e9); the offset is the
 * sixth batch's.
 */
class LateRedeliveryIT {

    @TempDir
    Path home;

    @Test
    void aRedeliveredEventIsNeitherQuarantinedNorCountedAgain() throws Exception {
        EmbeddedPostgres postgres = EmbeddedPostgres.builder().start();
        try {
            // postgres-rewrite: the row path's batch reports no counts, so only its lookup keeps e8's second delivery out
            for (String kind : List.of("postgres", "postgres-rewrite", "h2")) {
                String url = TestPipelines.url(kind, home, postgres);
                PipelineSpec spec = TestPipelines.write(home, "late", TestPipelines.CODED_VALUES, url, TestPipelines.user(kind),
                        TestPipelines.hotPath("late", "PT10S", """
                        - {table: gold.late_windows, kind: tumbling, size: PT60S, group_by: [code], distinct_by_content: true, measures: {n: count}}
                        - {table: gold.late_counts, kind: tumbling, size: PT60S, group_by: [code], measures: {n: count}}
                        """));
                ContractSpec contract = spec.source("late").orElseThrow().contract();
                EventDecoder decoder = new EventDecoder(contract, "at");
                try (Warehouse w = Warehouse.open(spec.warehouse(), 2)) {
                    HotSink sink = new HotSink("late", spec.hotPath(), contract);
                    sink.create(w.dsl());
                    List<HotSink.Consumed> offsets = new ArrayList<>();
                    apply(w, sink, decoder, offsets, "e1 00:00:05 A", "e2 00:01:40 A");
                    apply(w, sink, decoder, offsets, "e3 00:00:50 A", "e4 00:02:10 B");
                    apply(w, sink, decoder, offsets, "e3 00:00:50 A", "e1 00:00:05 A", "e4 00:02:10 B", "e5 00:00:20 B");
                    apply(w, sink, decoder, offsets, "e6 00:02:20 B", "e6 00:00:30 B", "e7 00:00:40 A", "e7 00:00:40 A");
                    // a value the arrays cannot carry (a year past 9999) sends the batch down the row path, which looks the ids up
                    apply(w, sink, decoder, offsets, "e8 +10000-01-01T00:00:00 A");
                    apply(w, sink, decoder, offsets, "e8 +10000-01-01T00:00:00 A", "e9 +10000-01-01T00:00:30 A");
                    DSLContext dsl = w.dsl();
                    assertThat(dsl.resultQuery("SELECT _event_id, _late FROM bronze.late_events ORDER BY _event_id").fetch()
                            .map(r -> r.get(0, String.class) + " " + r.get(1, Boolean.class)))
                            .as(kind).containsExactly("e1 false", "e2 false", "e3 true", "e4 false", "e5 true", "e6 false", "e7 true", "e8 false", "e9 false");
                    assertThat(dsl.resultQuery("SELECT rule_id, source_pos FROM sluice.quarantine ORDER BY source_pos").fetch()
                            .map(r -> r.get(0, String.class) + " " + r.get(1, Long.class)))
                            .as(kind + ": each too-late event quarantined once (e3 at offset 2, e5 at 7, e7 at 10)")
                            .containsExactly("too_late 2", "too_late 7", "too_late 10");
                    for (String table : List.of("gold.late_windows", "gold.late_counts")) {
                        assertThat(dsl.resultQuery("SELECT code, window_start_s, n FROM " + table + " ORDER BY code, window_start_s").fetch()
                                .map(r -> r.get(0, String.class) + " " + r.get(1, Long.class) + " n=" + r.get(2, Long.class)))
                                .as(kind + " " + table).containsExactly("A 978307200 n=1", "A 978307260 n=1", "A 253402300800 n=2", "B 978307320 n=2");
                    }
                    assertThat(dsl.resultQuery("SELECT next_offset FROM sluice.hot_offset").fetch(0, Long.class)).as(kind).containsExactly(15L);
                }
            }
        } finally {
            postgres.close();
        }
    }

    /** Applies one batch of "id hh:mm:ss code" (or "id +yyyyy-…T… code") events of partition 0, at the next offsets, in one transaction. */
    private static void apply(Warehouse w, HotSink sink, EventDecoder decoder, List<HotSink.Consumed> sent, String... events) {
        List<HotSink.Consumed> batch = new ArrayList<>();
        for (String e : events) {
            String[] f = e.split(" ");
            String at = f[1].startsWith("+") ? f[1] : "2001-01-01T" + f[1];
            String json = "{\"at\": \"" + at + "\", \"code\": \"" + f[2] + "\", \"v\": 1}";
            EventDecoder.Decoded d = decoder.decode(f[0].getBytes(StandardCharsets.UTF_8), json.getBytes(StandardCharsets.UTF_8));
            assertThat(d.violation()).isNull();
            HotSink.Consumed c = new HotSink.Consumed(d.event(), new HotSink.Position("late", 0, sent.size()));
            sent.add(c);
            batch.add(c);
        }
        w.dsl().transaction(c -> sink.apply(c.dsl(), batch, List.of(), Map.of(0, PartitionRead.at(sent.size())), RunId.newId(), 1));
    }
}
