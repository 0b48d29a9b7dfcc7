package dev.sluice.hotpath;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.config.SluiceEnvironment;
import dev.sluice.core.RunId;
import dev.sluice.warehouse.Warehouse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Session windows of several groups whose sessions overlap in time (on H2, batches applied straight
 * to {@link HotSink}, no broker): groups A and B each have 15 sessions of 6 events 20 s apart (gap
 * 30 s), B's starting 110 s after A's, so every session of one group overlaps one or two of the
 * other's and together they chain over 3,000 s. A later batch adds one event to A's first session and
 * one to B's first: only those two sessions change. (One span shared by the groups used to widen
 * through the chain, give up after 10 steps and cut the sessions across its end.)
 */
class SessionSpansIT {

    private static final LocalDateTime T0 = LocalDateTime.parse("2018-02-04T00:00:00");
    private static final int SESSIONS = 15;

    @TempDir
    Path home;

    @Test
    void aBatchTouchingOverlappingSessionsOfTwoGroupsRewritesOnlyTheirOwn() throws Exception {
        Files.createDirectories(home.resolve("contracts"));
        Files.writeString(home.resolve("contracts/ticks.v1.yaml"), "contract: ticks\nversion: 1\ncolumns:\n"
                + "  - {name: at, type: timestamp, nullable: false}\n  - {name: code, type: string, nullable: false}\n"
                + "  - {name: amount, type: long, nullable: false}\n");
        Path specFile = Files.writeString(home.resolve("ticks.yaml"), """
                pipeline: ticks
                warehouse: {url: "${SLUICE_WAREHOUSE_URL}", user: sa, password: ""}
                sources:
                  - {name: ticks, format: csv, path: "${SLUICE_HOME}/landing/ticks.csv", partitioned: false, contract: contracts/ticks.v1.yaml}
                layers:
                  bronze: [{table: bronze.ticks_raw, source: ticks}]
                  silver: [{table: silver.ticks, input: bronze.ticks_raw, partition: none, key: [code], columns: {code: string}, sql: "SELECT DISTINCT code FROM {input} t"}]
                  gold: [{table: gold.codes, input: silver.ticks, partition: none, key: [code], columns: {code: string}, sql: "SELECT code FROM {input} s"}]
                hot_path:
                  topic: ticks
                  source: ticks
                  event_time: at
                  sink: bronze.tick_events
                  allowed_lateness: PT1H
                  windows:
                    - {table: gold.ticks_session, kind: session, gap: PT30S, group_by: [code], measures: {n: count, total: sum(amount)}}
                """);
        String url = "jdbc:h2:file:" + home.resolve("wh-" + UUID.randomUUID()).toAbsolutePath();
        PipelineSpec spec = new PipelineSpecLoader(new SluiceEnvironment(Map.of("SLUICE_HOME", home.toString(), "SLUICE_WAREHOUSE_URL", url))
                .interpolator()).load(specFile);
        EventDecoder decoder = new EventDecoder(spec.source("ticks").orElseThrow().contract(), "at");
        HotSink sink = new HotSink(spec.name(), spec.hotPath(), spec.source("ticks").orElseThrow().contract());
        try (Warehouse w = Warehouse.open(spec.warehouse(), 2)) {
            DSLContext dsl = w.dsl();
            sink.create(dsl);
            List<HotSink.Consumed> first = new ArrayList<>();
            List<String> expected = new ArrayList<>();
            for (int k = 0; k < SESSIONS; k++) {
                for (int i = 0; i < 6; i++) {
                    first.add(event(decoder, first.size(), "A", 200 * k + 20 * i));
                    first.add(event(decoder, first.size(), "B", 200 * k + 110 + 20 * i));
                }
                expected.add("A " + (200 * k) + "-" + (200 * k + 130) + " n=" + (k == 0 ? 7 : 6));
            }
            for (int k = 0; k < SESSIONS; k++) {
                expected.add("B " + (200 * k + 110) + "-" + (200 * k + 240) + " n=" + (k == 0 ? 7 : 6));
            }
            apply(w, sink, first);
            assertThat(rows(dsl)).hasSize(2 * SESSIONS);
            apply(w, sink, List.of(event(decoder, first.size(), "A", 50), event(decoder, first.size() + 1, "B", 150)));
            assertThat(rows(dsl)).containsExactlyElementsOf(expected);
            assertThat(dsl.resultQuery("SELECT SUM(n) FROM gold.ticks_session").fetchOne(0, Long.class)).isEqualTo(12L * SESSIONS + 2);
        }
    }

    /** Applies one poll batch in one transaction, as a consumer does. */
    private static void apply(Warehouse w, HotSink sink, List<HotSink.Consumed> batch) {
        long next = batch.get(batch.size() - 1).at().offset() + 1;
        w.dsl().transaction(c -> sink.apply(c.dsl(), batch, List.of(), Map.of(0, PartitionRead.at(next)), RunId.newId(), 1));
    }

    /** The event "id n": code at T0 + seconds, amount 1, read at offset n of partition 0. */
    private static HotSink.Consumed event(EventDecoder decoder, int n, String code, long seconds) {
        String value = "{\"at\":\"" + T0.plusSeconds(seconds) + "\",\"code\":\"" + code + "\",\"amount\":1}";
        EventDecoder.Decoded d = decoder.decode(("e" + n).getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8));
        assertThat(d.event()).as(value).isNotNull();
        return new HotSink.Consumed(d.event(), new HotSink.Position("ticks", 0, n));
    }

    /** "code start-end n=…" with start/end in seconds after T0, ordered. */
    private static List<String> rows(DSLContext dsl) {
        long t0 = T0.toEpochSecond(java.time.ZoneOffset.UTC);
        return dsl.resultQuery("SELECT code, window_start_s - " + t0 + ", window_end_s - " + t0 + ", n FROM gold.ticks_session"
                + " ORDER BY code, window_start_s").fetch().map(r -> r.get(0) + " " + r.get(1) + "-" + r.get(2) + " n=" + r.get(3));
    }
}
