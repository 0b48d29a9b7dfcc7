package dev.sluice.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.app.cli.SluiceCommand;
import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.config.SluiceEnvironment;
import dev.sluice.core.Partition;
import dev.sluice.hotpath.LiveConsumer;
import dev.sluice.warehouse.Warehouse;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hot path end to end on the kafka-dev broker (its own JVM: this module carries Spark): `sluice
 * kafka-dev start`, `sluice produce flights --partition 2001-01-02 --shuffle-within PT5M` (16,850
 * real flights, out of order within 5 minutes), two consumers, then the batch load of the same day.
 * The live windows rolled up to the day agree with `gold.airport_daily_delays`: the same flights per
 * airport, the same average delay within 1e-9 relative.
 */
class HotPathEndToEndIT {

    @TempDir
    Path home;

    private static final Partition DAY = new Partition("2001-01-02");

    @Test
    void liveWindowsOfARealDayAgreeWithTheBatchMart() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        java.nio.file.Files.createSymbolicLink(home.resolve("landing"), TestHome.withSampleData().resolve("landing"));
        String url = TestHome.freshH2Url();
        Map<String, String> vars = new HashMap<>(Map.of("SLUICE_HOME", home.toString(), "SLUICE_WAREHOUSE_URL", url,
                "SLUICE_PIPELINES", TestHome.projectRoot().resolve("pipelines").toString(),
                "SLUICE_KAFKA_BOOTSTRAP", "127.0.0.1:" + port,
                "SLUICE_KAFKA_DEV_LIB", TestHome.projectRoot().resolve("kafka-dev/target/lib").toString()));
        SluiceEnvironment env = new SluiceEnvironment(vars);
        try {
            assertThat(sluice(env, "kafka-dev", "start", "--port", Integer.toString(port))).startsWith("0 kafka-dev running");
            assertThat(sluice(env, "produce", "flights", "--partition", DAY.key(), "--shuffle-within", "PT5M"))
                    .startsWith("0 published 16,850 event(s) of flights 2001-01-02 to flights.events");
            PipelineSpec spec = new PipelineSpecLoader(env.interpolator()).load(TestHome.projectRoot().resolve("pipelines/flights.yaml"));
            try (Warehouse w = Warehouse.open(spec.warehouse(), 6)) {
                DSLContext dsl = w.dsl();
                LiveConsumer a = LiveConsumer.of(spec, w, Map.of(), LiveConsumer.Hooks.NONE);
                LiveConsumer b = LiveConsumer.of(spec, w, Map.of(), LiveConsumer.Hooks.NONE);
                CompletableFuture<Void> ra = CompletableFuture.runAsync(a);
                CompletableFuture<Void> rb = CompletableFuture.runAsync(b);
                long end = System.nanoTime() + Duration.ofMinutes(2).toNanos();
                while (dsl.resultQuery("SELECT COALESCE(SUM(next_offset), 0) FROM sluice.hot_offset").fetchOne(0, Long.class) < 16_850) {
                    assertThat(System.nanoTime()).as("consumed in time").isLessThan(end);
                    java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(100).toNanos()); // a polling interval
                }
                a.close();
                b.close();
                ra.get();
                rb.get();
                assertThat(dsl.resultQuery("SELECT COUNT(*) FROM bronze.flight_events WHERE NOT _late").fetchOne(0, Long.class)).isEqualTo(16_850);

                assertThat(new PipelineRunner(w, home).run(spec, DAY, RunOptions.plain()).status()).isEqualTo("COMPLETED");
                assertThat(dsl.resultQuery("SELECT COUNT(*) FROM sluice.quarantine WHERE partition_key = ?", DAY.key()).fetchOne(0, Long.class))
                        .as("no row of the day is quarantined by Silver, so the counts must agree exactly").isZero();
                var live = dsl.resultQuery("SELECT origin, SUM(flights), SUM(avg_delay_min * flights) / SUM(flights) FROM gold.airport_delays_live"
                        + " WHERE window_start >= TIMESTAMP '2001-01-02 00:00:00' AND window_start < TIMESTAMP '2001-01-03 00:00:00'"
                        + " GROUP BY origin ORDER BY origin").fetch();
                var batch = dsl.resultQuery("SELECT origin, flights, avg_delay_min FROM gold.airport_daily_delays WHERE flight_date = DATE '2001-01-02'"
                        + " ORDER BY origin").fetch();
                assertThat(live).hasSameSizeAs(batch).hasSizeGreaterThan(200);
                for (int i = 0; i < batch.size(); i++) {
                    assertThat(live.get(i).get(0)).isEqualTo(batch.get(i).get(0));
                    assertThat(live.get(i).get(1, Long.class)).as("flights of %s", batch.get(i).get(0)).isEqualTo(batch.get(i).get(1, Long.class));
                    double l = live.get(i).get(2, Double.class);
                    double g = batch.get(i).get(2, Double.class);
                    assertThat(Math.abs(l - g)).as("average delay of %s", batch.get(i).get(0)).isLessThanOrEqualTo(1e-9 * Math.max(1, Math.abs(g)));
                }
            }
        } finally {
            sluice(env, "kafka-dev", "stop");
        }
    }

    /** Runs a sluice command in this JVM: "<exit code> <stdout>". */
    private static String sluice(SluiceEnvironment env, String... args) {
        StringWriter out = new StringWriter();
        int code = SluiceCommand.execute(env, new PrintWriter(out, true), new PrintWriter(new StringWriter(), true), args);
        return code + " " + out;
    }
}
