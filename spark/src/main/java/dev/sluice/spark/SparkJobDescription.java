package dev.sluice.spark;

import org.apache.spark.SparkContext;
import org.apache.spark.sql.SparkSession;
import org.jspecify.annotations.Nullable;

/**
 * Names the Spark jobs that the calling thread starts until {@link #close()}: Spark's
 * {@code spark.job.description} local property, which the master's and the application's UIs, the
 * event log and a {@code SparkListener}'s job-start event show for each job (e.g.
 * {@code sluice flights_lake silver.lake_flights 2001-01-01..2001-01-10}). Restores the thread's
 * previous description on close, so descriptions nest. A thread's threads started meanwhile
 * inherit it (Spark's local properties are inheritable). Use from one thread, in try-with-resources.
 */
public final class SparkJobDescription implements AutoCloseable {

    private static final String KEY = "spark.job.description";

    private final SparkContext context;
    private final @Nullable String previous;

    private SparkJobDescription(SparkContext context, String description) {
        this.context = context;
        this.previous = context.getLocalProperty(KEY);
        context.setLocalProperty(KEY, description);
    }

    /** Describes the jobs the calling thread starts on {@code master}'s session (the root session, made on first use). */
    public static SparkJobDescription of(String master, String description) {
        return new SparkJobDescription(SparkSessions.root(master).sparkContext(), description);
    }

    /** Describes the jobs the calling thread starts on {@code session}'s SparkContext. */
    public static SparkJobDescription of(SparkSession session, String description) {
        return new SparkJobDescription(session.sparkContext(), description);
    }

    @Override
    public void close() {
        context.setLocalProperty(KEY, previous);
    }
}
