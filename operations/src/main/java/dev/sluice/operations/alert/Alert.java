package dev.sluice.operations.alert;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Something a person must hear about.
 *
 * @param kind what happened
 * @param pipeline the pipeline
 * @param dataset the dataset concerned ({@code schema.table}), or null
 * @param partition the partition concerned, or null
 * @param message one paragraph for people
 * @param at when it was noticed
 */
public record Alert(Kind kind, String pipeline, @Nullable String dataset, @Nullable String partition, String message, Instant at) {

    /** What an alert is about. */
    public enum Kind {
        /** A dataset's time since last update passed 1.5 × its update interval. */
        FRESHNESS_WARN,
        /** A dataset's time since last update passed its freshness SLA. */
        FRESHNESS_BREACH,
        /** A late dataset is fresh again. */
        FRESHNESS_OK,
        /** A run failed (not at a gate). */
        RUN_FAILED,
        /** An {@code error} quality check failed: the partition was not published. */
        GATE_FAILED
    }

    public Alert {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(pipeline, "pipeline");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(at, "at");
    }
}
