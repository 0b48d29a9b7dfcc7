package dev.sluice.quality.internal.deequ;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The gates' SparkSession started ahead of the first evaluation, once per JVM, on a daemon thread
 * that carries the caller's MDC (run id, pipeline, partition): the session, then one small grouped
 * job (1,000 rows, a shuffle) so that Spark's first-job set-up is done too. Measured on the
 * flights quickstart (2026-12-05): the first wave's source gate took 19 s against 8 s for the next
 * waves' (same rows), the difference being Spark's start, which waited behind the wave's Bronze
 * loads (14 s) (one 64-day backfill's log); over whole quickstarts the source gate took about 4 s
 * less with this start (docs/benchmarks.md). Thread-safe.
 */
final class SessionStart {

    private static final Logger LOG = LoggerFactory.getLogger(SessionStart.class);
    private static final AtomicReference<CompletableFuture<Void>> STARTED = new AtomicReference<>();

    private SessionStart() {
    }

    /** Starts the session on {@code master} unless a start was already asked for in this JVM; see {@link dev.sluice.quality.QualityGate#startInBackground}. */
    static CompletableFuture<Void> inBackground(String master) {
        CompletableFuture<Void> started = new CompletableFuture<>();
        if (!STARTED.compareAndSet(null, started)) {
            return STARTED.get();
        }
        Map<String, String> mdc = MDC.getCopyOfContextMap();
        Thread t = new Thread(() -> {
            if (mdc != null) {
                MDC.setContextMap(mdc);
            }
            try {
                SparkSession s = SparkSessions.get(master);
                s.range(0, 1_000).groupBy(functions.col("id").mod(2)).count().collectAsList();
                started.complete(null);
            } catch (Exception | LinkageError e) {
                // Exception: Spark's SparkException is checked, thrown out of Scala (a master URL it cannot parse, a cancelled job)
                // the first evaluation starts the session again and reports what fails then
                LOG.warn("the quality gates' Spark session did not start ahead of the first gate: {}", e.toString());
                started.completeExceptionally(e);
            }
        }, "sluice-gate-session-start");
        t.setDaemon(true);
        t.start();
        return started;
    }
}
