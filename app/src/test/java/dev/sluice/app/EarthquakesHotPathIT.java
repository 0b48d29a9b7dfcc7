package dev.sluice.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.app.cli.SluiceCommand;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.config.SluiceEnvironment;
import dev.sluice.hotpath.LiveConsumer;
import dev.sluice.warehouse.Warehouse;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The earthquake hot path end to end on the kafka-dev broker: {@code sluice validate earthquakes},
 * {@code sluice produce earthquakes --shuffle-within PT10M} (the whole USGS feed of the sample
 * package, 1,707 events over 8 UTC days, out of order within 10 minutes, less than the 30-minute
 * allowed lateness), two consumers, then every row of both live window tables against windows
 * computed here, independently, from the landed GeoJSON file (Jackson and plain Java):
 * <ul>
 *   <li>{@code gold.earthquakes_sliding_live}: per net, 1 h windows every 15 min; a window
 *       [s, s + 3600) for every s that is a multiple of 900 with an event in it;</li>
 *   <li>{@code gold.earthquake_sessions_live}: per net, events less than 30 min after the previous
 *       one are one session, from the first event to the last + 30 min.</li>
 * </ul>
 * Event times are taken to the whole second (floor), as the windows are: three pairs of events in the
 * feed are 1,799.4–1,799.7 s apart but 1,800 whole seconds, so they start new sessions (779 sessions;
 * 776 on millisecond times). Counts and max exact, averages within 1e-9 relative.
 */
class EarthquakesHotPathIT {

    private static final long SLIDE_S = 900;
    private static final long SIZE_S = 3600;
    private static final long GAP_S = 1800;
    private static final int FEED_EVENTS = 1_707;

    @TempDir
    Path home;

    /** One event of the feed: network, event time (epoch ms), magnitude (null when absent). */
    private record Quake(String net, long epochMs, Double mag) {

        /** The event time as the windows see it: whole epoch seconds (floor). */
        long epochS() {
            return Math.floorDiv(epochMs, 1000L);
        }
    }

    /** An expected window: group, start and end (epoch seconds), event count, max and average magnitude (null when no magnitude). */
    private record Window(String net, long startS, long endS, long events, Double maxMag, Double avgMag) {

        /** The exact part, for comparing whole tables row by row. */
        String exact() {
            return net + " " + LocalDateTime.ofEpochSecond(startS, 0, ZoneOffset.UTC) + " " + LocalDateTime.ofEpochSecond(endS, 0, ZoneOffset.UTC)
                    + " events=" + events + " max_mag=" + maxMag;
        }
    }

    @Test
    void slidingWindowsAndSessionsOfTheWholeFeedEqualAnIndependentReference() throws Exception {
        int port = KafkaDevPorts.free();
        Path sample = TestHome.withSampleData();
        Files.createSymbolicLink(home.resolve("landing"), sample.resolve("landing"));
        Map<String, String> vars = new HashMap<>(Map.of("SLUICE_HOME", home.toString(), "SLUICE_WAREHOUSE_URL", TestHome.freshH2Url(),
                "SLUICE_PIPELINES", TestHome.projectRoot().resolve("pipelines").toString(),
                "SLUICE_KAFKA_BOOTSTRAP", "127.0.0.1:" + port,
                "SLUICE_KAFKA_DEV_LIB", TestHome.projectRoot().resolve("kafka-dev/target/lib").toString()));
        SluiceEnvironment env = new SluiceEnvironment(vars);
        List<Quake> feed = feed(sample.resolve("landing/earthquakes/earthquakes.json"));
        assertThat(feed).hasSize(FEED_EVENTS);

        assertThat(sluice(env, "validate", "earthquakes")).startsWith("0 ").endsWith("earthquakes.yaml: valid; every design rule holds\n");
        assertThat(sluice(env, "produce", "flights")).as("flights lands one directory per day: no whole to publish")
                .startsWith("2 ").endsWith("source flights lands one directory per partition: publish one partition at a time (--partition D)\n");
        try {
            assertThat(sluice(env, "kafka-dev", "start", "--port", Integer.toString(port))).startsWith("0 kafka-dev running");
            assertThat(sluice(env, "produce", "earthquakes", "--shuffle-within", "PT10M", "--seed", "7"))
                    .startsWith("0 published 1,707 event(s) of earthquakes (every landed row) to earthquakes.events in ")
                    .contains(", out of order within PT10M").doesNotContain("left out");
            PipelineSpec spec = new PipelineSpecLoader(env.interpolator()).load(TestHome.projectRoot().resolve("pipelines/earthquakes.yaml"));
            try (Warehouse w = Warehouse.open(spec.warehouse(), 6)) {
                DSLContext dsl = w.dsl();
                consumeAll(spec, w, FEED_EVENTS);

                assertThat(dsl.resultQuery("SELECT COUNT(*), COUNT(DISTINCT id), SUM(CASE WHEN _late THEN 1 ELSE 0 END)"
                        + " FROM bronze.earthquake_events").fetchOne().intoList()).map(Object::toString).as("every valid row once, none late")
                        .containsExactly("1707", "1707", "0");
                assertThat(dsl.fetchCount(dsl.selectFrom("sluice.quarantine"))).isZero();

                List<Window> sliding = slidingWindows(feed);
                List<Window> sessions = sessions(feed);
                assertTable(dsl, "gold.earthquakes_sliding_live", sliding, true);
                assertTable(dsl, "gold.earthquake_sessions_live", sessions, false);

                // hand-checkable facts
                assertThat(sliding).hasSize(3_429);
                assertThat(sliding.stream().mapToLong(Window::events).sum()).as("each event in size/slide = 4 windows").isEqualTo(4L * FEED_EVENTS);
                assertThat(sessions).hasSize(779);
                assertThat(splitByTheSecond(feed)).as("gaps under 30 min in ms, 30 min in whole seconds: a session each more").isEqualTo(3);
                assertThat(sessions.stream().mapToLong(Window::events).sum()).isEqualTo(FEED_EVENTS);
                assertThat(dsl.resultQuery("SELECT COUNT(*) FROM gold.earthquake_sessions_live WHERE events = 1").fetchOne(0, Long.class))
                        .as("single-event sessions: background seismicity").isEqualTo(442);
                assertThat(dsl.resultQuery("SELECT net || ' ' || window_start || ' ' || window_end || ' ' || events || ' ' || max_mag"
                        + " FROM gold.earthquake_sessions_live ORDER BY events DESC, window_start_s FETCH FIRST 1 ROW ONLY")
                        .fetchOne(0, String.class))
                        .as("the largest session: Nevada network, a burst near Beatty and Bridgeport").isEqualTo(
                                "nn 2018-02-04 15:26:22 2018-02-04 18:26:58 18 1.3");
                assertThat(dsl.resultQuery("SELECT net || ' ' || window_start || ' ' || events || ' ' || max_mag"
                        + " FROM gold.earthquake_sessions_live ORDER BY max_mag DESC FETCH FIRST 1 ROW ONLY").fetchOne(0, String.class))
                        .as("the strongest: the M6.4 Hualien, Taiwan earthquake").isEqualTo("us 2018-02-06 15:50:42 2 6.4");
                assertThat(dsl.resultQuery("SELECT MAX(events) FROM gold.earthquakes_sliding_live").fetchOne(0, Long.class)).isEqualTo(10);
            }
        } finally {
            sluice(env, "kafka-dev", "stop");
        }
    }

    /** Runs two consumers of the hot path until the stored offsets cover {@code events} records, then stops them. */
    private static void consumeAll(PipelineSpec spec, Warehouse w, long events) throws Exception {
        LiveConsumer a = LiveConsumer.of(spec, w, Map.of(), LiveConsumer.Hooks.NONE);
        LiveConsumer b = LiveConsumer.of(spec, w, Map.of(), LiveConsumer.Hooks.NONE);
        CompletableFuture<Void> ra = CompletableFuture.runAsync(a);
        CompletableFuture<Void> rb = CompletableFuture.runAsync(b);
        try {
            long end = System.nanoTime() + Duration.ofMinutes(2).toNanos();
            while (w.dsl().resultQuery("SELECT COALESCE(SUM(next_offset), 0) FROM sluice.hot_offset").fetchOne(0, Long.class) < events) {
                assertThat(System.nanoTime()).as("consumed in time").isLessThan(end);
                assertThat(ra).as("consumer a still running").isNotDone();
                assertThat(rb).as("consumer b still running").isNotDone();
                java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(100).toNanos()); // a polling interval
            }
        } finally {
            a.close();
            b.close();
        }
        ra.get();
        rb.get();
    }

    /** The features of the GeoJSON file: properties.net, properties.time (epoch ms), properties.mag. */
    private static List<Quake> feed(Path file) throws Exception {
        List<Quake> out = new ArrayList<>();
        for (JsonNode f : new ObjectMapper().readTree(file.toFile()).path("features")) {
            JsonNode p = f.path("properties");
            out.add(new Quake(p.hasNonNull("net") ? p.get("net").asText() : null, p.get("time").asLong(),
                    p.hasNonNull("mag") ? p.get("mag").asDouble() : null));
        }
        return out;
    }

    /** Sliding windows per net: each event in the windows starting at floor(t / slide) * slide - j * slide, j = 0 … size/slide - 1. */
    private static List<Window> slidingWindows(List<Quake> feed) {
        Map<String, List<Quake>> byWindow = new TreeMap<>();
        for (Quake q : feed) {
            if (q.net() == null) {
                continue; // a NULL group value is in no window
            }
            for (long j = 0; j < SIZE_S / SLIDE_S; j++) {
                long start = (Math.floorDiv(q.epochS(), SLIDE_S) - j) * SLIDE_S;
                byWindow.computeIfAbsent(q.net() + "\u0000" + String.format("%012d", start), k -> new ArrayList<>()).add(q);
            }
        }
        List<Window> out = new ArrayList<>();
        byWindow.forEach((k, qs) -> {
            long start = Long.parseLong(k.substring(k.indexOf('\u0000') + 1));
            out.add(window(qs.get(0).net(), start, start + SIZE_S, qs));
        });
        return sorted(out);
    }

    /** Sessions per net: in time order, an event less than the gap after the previous one joins its session; end = last + gap. */
    private static List<Window> sessions(List<Quake> feed) {
        List<Window> out = new ArrayList<>();
        byNet(feed).forEach((net, qs) -> {
            List<Quake> current = new ArrayList<>();
            for (Quake q : qs) {
                if (!current.isEmpty() && q.epochS() - current.get(current.size() - 1).epochS() >= GAP_S) {
                    out.add(session(net, current));
                    current = new ArrayList<>();
                }
                current.add(q);
            }
            out.add(session(net, current));
        });
        return sorted(out);
    }

    /** Consecutive events of a network less than the gap apart in milliseconds, but not in whole seconds. */
    private static long splitByTheSecond(List<Quake> feed) {
        long n = 0;
        for (List<Quake> qs : byNet(feed).values()) {
            for (int i = 1; i < qs.size(); i++) {
                if (qs.get(i).epochMs() - qs.get(i - 1).epochMs() < GAP_S * 1000 && qs.get(i).epochS() - qs.get(i - 1).epochS() >= GAP_S) {
                    n++;
                }
            }
        }
        return n;
    }

    /** The events with a network, per network in time order. */
    private static Map<String, List<Quake>> byNet(List<Quake> feed) {
        Map<String, List<Quake>> byNet = new TreeMap<>();
        feed.stream().filter(q -> q.net() != null).forEach(q -> byNet.computeIfAbsent(q.net(), k -> new ArrayList<>()).add(q));
        byNet.values().forEach(qs -> qs.sort(Comparator.comparingLong(Quake::epochMs)));
        return byNet;
    }

    private static Window session(String net, List<Quake> qs) {
        return window(net, qs.get(0).epochS(), qs.get(qs.size() - 1).epochS() + GAP_S, qs);
    }

    /** count(*), max(mag) and avg(mag) as SQL computes them: magnitudes that are null are left out; none at all gives null. */
    private static Window window(String net, long start, long end, List<Quake> qs) {
        double max = Double.NEGATIVE_INFINITY;
        double sum = 0;
        int mags = 0;
        for (Quake q : qs) {
            if (q.mag() != null) {
                max = Math.max(max, q.mag());
                sum += q.mag();
                mags++;
            }
        }
        return new Window(net, start, end, qs.size(), mags == 0 ? null : max, mags == 0 ? null : sum / mags);
    }

    private static List<Window> sorted(List<Window> windows) {
        return windows.stream().sorted(Comparator.comparing(Window::net).thenComparingLong(Window::startS)).toList();
    }

    /** The whole table equals {@code expected}: every row, exact but the average (1e-9 relative). */
    private static void assertTable(DSLContext dsl, String table, List<Window> expected, boolean hasAvg) {
        List<Window> actual = new ArrayList<>();
        for (Record r : dsl.resultQuery("SELECT net, window_start_s, window_end_s, window_start, window_end, events, max_mag"
                + (hasAvg ? ", avg_mag" : "") + " FROM " + table + " ORDER BY net, window_start_s").fetch()) {
            long start = r.get(1, Long.class);
            long end = r.get(2, Long.class);
            assertThat(r.get(3, LocalDateTime.class)).as("window_start of %s", r).isEqualTo(LocalDateTime.ofEpochSecond(start, 0, ZoneOffset.UTC));
            assertThat(r.get(4, LocalDateTime.class)).as("window_end of %s", r).isEqualTo(LocalDateTime.ofEpochSecond(end, 0, ZoneOffset.UTC));
            actual.add(new Window(r.get(0, String.class), start, end, r.get(5, Long.class), r.get(6, Double.class),
                    hasAvg ? r.get(7, Double.class) : null));
        }
        assertThat(actual).extracting(Window::exact).as(table).containsExactlyElementsOf(expected.stream().map(Window::exact).toList());
        if (hasAvg) {
            for (int i = 0; i < expected.size(); i++) {
                Double e = expected.get(i).avgMag();
                Double a = actual.get(i).avgMag();
                if (e == null || a == null) {
                    assertThat(a).as("avg_mag of %s", expected.get(i).exact()).isEqualTo(e);
                    continue;
                }
                assertThat(Math.abs(a - e)).as("avg_mag of %s", expected.get(i).exact()).isLessThanOrEqualTo(1e-9 * Math.max(1, Math.abs(e)));
            }
        }
    }

    /** Runs a sluice command in this JVM: "<exit code> <stdout><stderr>". */
    private static String sluice(SluiceEnvironment env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = SluiceCommand.execute(env, new PrintWriter(out, true), new PrintWriter(err, true), args);
        return code + " " + out + err;
    }
}
