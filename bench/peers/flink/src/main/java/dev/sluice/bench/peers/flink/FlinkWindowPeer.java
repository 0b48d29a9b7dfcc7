package dev.sluice.bench.peers.flink;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.jdbc.JdbcConnectionOptions;
import org.apache.flink.connector.jdbc.JdbcExecutionOptions;
import org.apache.flink.connector.jdbc.core.datastream.sink.JdbcSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * The hot path's window in Apache Flink, for the bench: flight events (Sluice's JSON shape:
 * {@code {"date": "2001-01-01T06:15", "delay": 12, "distance": 563, "origin": "ORD", "destination": "ATL"}})
 * read from a Kafka topic by Flink's {@code KafkaSource} (bounded: from the earliest offsets to the
 * latest at start), event time from {@code date} with Sluice's allowed lateness expressed as a
 * bounded out-of-orderness watermark ({@code WatermarkStrategy.forBoundedOutOfOrderness}; not Flink's
 * {@code allowedLateness()}), a 1-hour tumbling window per origin (flights, average and maximum
 * delay), written by Flink's JDBC sink (at-least-once, upsert by origin and window start) into
 * PostgreSQL. Events behind the watermark go to a side output and are counted, not written.
 *
 * <p>Runs in a local mini-cluster in this JVM. Arguments: bootstrap servers, topic, JDBC URL,
 * allowed lateness (ISO-8601 duration), parallelism. Prints one line at the end:
 * {@code FLINK-RESULT events=N late=L windows=W first_ns=… last_ns=… end_ns=…} (nanoTime of the
 * first and last event parsed and of the job's end, sink flushed).
 */
public final class FlinkWindowPeer {

    static final AtomicLong EVENTS = new AtomicLong();
    static final AtomicLong LATE = new AtomicLong();
    static final AtomicLong WINDOWS = new AtomicLong();
    static final AtomicLong FIRST_NS = new AtomicLong();
    static final AtomicLong LAST_NS = new AtomicLong();

    private FlinkWindowPeer() {
    }

    /** One flight event: event time (ms since the epoch, UTC), origin, delay in minutes. */
    public record Event(long timeMs, String origin, long delay) {
    }

    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        String topic = args[1];
        String jdbcUrl = args[2];
        Duration lateness = Duration.parse(args[3]);
        int parallelism = Integer.parseInt(args[4]);

        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(parallelism);
        KafkaSource<Event> source = KafkaSource.<Event>builder().setBootstrapServers(bootstrap).setTopics(topic)
                .setGroupId("flink-window-peer").setStartingOffsets(OffsetsInitializer.earliest())
                .setBounded(OffsetsInitializer.latest())
                .setDeserializer(KafkaRecordDeserializationSchema.valueOnly(new EventSchema())).build();
        OutputTag<Event> late = new OutputTag<>("late", TypeInformation.of(Event.class));
        SingleOutputStreamOperator<Window> windows = env
                .fromSource(source, WatermarkStrategy.<Event>forBoundedOutOfOrderness(lateness).withTimestampAssigner((e, ts) -> e.timeMs()),
                        "flights")
                .keyBy(Event::origin)
                .window(TumblingEventTimeWindows.of(Duration.ofHours(1)))
                .sideOutputLateData(late)
                .aggregate(new Measures(), new Keyed());
        windows.getSideOutput(late).map(e -> LATE.incrementAndGet()).name("count late").sinkTo(new DiscardingSink<>());
        windows.sinkTo(JdbcSink.<Window>builder()
                .withQueryStatement("INSERT INTO airport_delays_flink (origin, window_start, flights, avg_delay_min, max_delay_min)"
                        + " VALUES (?, ?, ?, ?, ?) ON CONFLICT (origin, window_start) DO UPDATE SET flights = EXCLUDED.flights,"
                        + " avg_delay_min = EXCLUDED.avg_delay_min, max_delay_min = EXCLUDED.max_delay_min", (ps, w) -> {
                            ps.setString(1, w.origin());
                            ps.setTimestamp(2, Timestamp.valueOf(LocalDateTime.ofEpochSecond(w.startMs() / 1000, 0, ZoneOffset.UTC)));
                            ps.setLong(3, w.flights());
                            ps.setDouble(4, w.avgDelay());
                            ps.setLong(5, w.maxDelay());
                        })
                .withExecutionOptions(JdbcExecutionOptions.builder().withBatchSize(5000).withBatchIntervalMs(200).build())
                .buildAtLeastOnce(new JdbcConnectionOptions.JdbcConnectionOptionsBuilder().withUrl(jdbcUrl)
                        .withDriverName("org.postgresql.Driver").withUsername("postgres").build()));
        env.execute("flights windows");
        // one println of the whole line: printf writes it in pieces, and Flink's log lines (stderr, the
        // same file) landed between them (the bench then failed to read the result, 2026-12-05)
        System.out.println(String.format("FLINK-RESULT events=%d late=%d windows=%d first_ns=%d last_ns=%d end_ns=%d", EVENTS.get(),
                LATE.get(), WINDOWS.get(), FIRST_NS.get(), LAST_NS.get(), System.nanoTime()));
        System.out.flush();
    }

    /** A window's result. */
    public record Window(String origin, long startMs, long flights, double avgDelay, long maxDelay) {
    }

    /** Parses Sluice's flight event JSON with Jackson, noting the first and last parse time. */
    static final class EventSchema implements DeserializationSchema<Event> {

        private transient ObjectMapper json;

        @Override
        public Event deserialize(byte[] message) throws IOException {
            if (json == null) {
                json = new ObjectMapper();
            }
            long now = System.nanoTime();
            FIRST_NS.compareAndSet(0, now);
            LAST_NS.set(now);
            EVENTS.incrementAndGet();
            JsonNode n = json.readTree(message);
            return new Event(LocalDateTime.parse(n.get("date").asText()).toInstant(ZoneOffset.UTC).toEpochMilli(),
                    n.get("origin").asText(), n.get("delay").asLong());
        }

        @Override
        public boolean isEndOfStream(Event nextElement) {
            return false;
        }

        @Override
        public TypeInformation<Event> getProducedType() {
            return TypeInformation.of(Event.class);
        }
    }

    /** count, sum and max of delay: {@code [count, sum, max]}. */
    static final class Measures implements AggregateFunction<Event, long[], long[]> {

        @Override
        public long[] createAccumulator() {
            return new long[] {0, 0, Long.MIN_VALUE};
        }

        @Override
        public long[] add(Event e, long[] acc) {
            acc[0]++;
            acc[1] += e.delay();
            acc[2] = Math.max(acc[2], e.delay());
            return acc;
        }

        @Override
        public long[] getResult(long[] acc) {
            return acc;
        }

        @Override
        public long[] merge(long[] a, long[] b) {
            return new long[] {a[0] + b[0], a[1] + b[1], Math.max(a[2], b[2])};
        }
    }

    /** The window's key and start added to its measures. */
    static final class Keyed extends ProcessWindowFunction<long[], Window, String, TimeWindow> {

        @Override
        public void process(String origin, Context context, Iterable<long[]> measures, Collector<Window> out) {
            long[] m = measures.iterator().next();
            WINDOWS.incrementAndGet();
            out.collect(new Window(origin, context.window().getStart(), m[0], (double) m[1] / m[0], m[2]));
        }
    }
}
