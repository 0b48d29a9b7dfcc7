package dev.sluice.config.design;

import dev.sluice.config.PipelineSpec;
import dev.sluice.config.RequirementsSpec;
import dev.sluice.core.PartitionKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The mode a pipeline's declared requirements call for, with the reasons, and where the declared
 * design disagrees. The table (docs/design.md, "Mode advice"):
 * <table>
 *   <caption>advice by declared requirements</caption>
 *   <tr><th>declared</th><th>advice</th></tr>
 *   <tr><td>live numbers (latency &lt; 1 min) and warehouse history</td><td>HYBRID: hot path + batch, reconciled</td></tr>
 *   <tr><td>latency &lt; 1 min, no history</td><td>STREAMING</td></tr>
 *   <tr><td>1 min ≤ latency &lt; 1 h</td><td>MICRO_BATCH: batch on an hourly or per-fire schedule</td></tr>
 *   <tr><td>latency ≥ 1 h, or daily/weekly reporting</td><td>BATCH</td></tr>
 * </table>
 * A declared latency decides; live numbers without a latency mean a latency under a minute; the
 * reporting cadence decides only when no latency is declared. A hot path (HYBRID or STREAMING) whose
 * peak is above {@link #HIGH_RATE} is sized: consumers = ⌈peak / the per-consumer rate measured
 * into the pipeline's warehouse kind⌉ ({@link #consumerRate}), partitions ≥ consumers. Immutable.
 *
 * @param mode the recommended mode
 * @param reasons why, one sentence each, in order
 * @param disagreements where the declared design (layers, hot path, partitioning, schedule)
 *     disagrees with the advice; empty when it agrees
 */
public record ModeAdvice(Mode mode, List<String> reasons, List<String> disagreements) {

    /**
     * Events per second one hot-path consumer sustains into an H2 warehouse's sink, windows on:
     * the bench's {@code hotsink} measure (docs/benchmarks.md, "Where #29 ends": 2,000,000 real
     * flight events, 2 consumers on 2 cores, {@code max_poll_records} 2,000; 14,328 and 15,356
     * events/s together in two runs, 2026-12-05), the lower per consumer, rounded down to hundreds.
     */
    public static final long MEASURED_CONSUMER_RATE_H2 = 7_100;
    /**
     * The same into a PostgreSQL warehouse's sink (embedded PostgreSQL on the same 2 cores): 43,954
     * and 44,446 events/s together in the same two runs; the lower per consumer, rounded down to
     * hundreds. PostgreSQL on a machine of its own leaves the consumers more.
     */
    public static final long MEASURED_CONSUMER_RATE_POSTGRESQL = 21_900;
    /** Above this peak rate (events/s) a design with a hot path states its partitions and consumers. */
    public static final long HIGH_RATE = 10_000;

    public ModeAdvice {
        reasons = List.copyOf(reasons);
        disagreements = List.copyOf(disagreements);
    }

    /** The modes. */
    public enum Mode {
        /** Hot path for live numbers plus batch for history, reconciled. */
        HYBRID,
        /** Hot path only. */
        STREAMING,
        /** Batch on an hourly or per-fire schedule. */
        MICRO_BATCH,
        /** Batch, daily or coarser. */
        BATCH;

        /** How the advice prints it. */
        public String label() {
            return switch (this) {
                case HYBRID -> "HYBRID (hot path + batch, reconciled)";
                case STREAMING -> "STREAMING";
                case MICRO_BATCH -> "BATCH on an hourly or per-fire schedule (micro-batch)";
                case BATCH -> "BATCH";
            };
        }
    }

    /**
     * The advice for {@code spec}.
     *
     * @throws IllegalArgumentException when the spec declares no {@code requirements}
     */
    public static ModeAdvice of(PipelineSpec spec) {
        RequirementsSpec r = spec.requirements();
        if (r == null) {
            throw new IllegalArgumentException("pipeline " + spec.name() + " declares no requirements (latency, peak volume, live numbers, history)");
        }
        List<String> reasons = new ArrayList<>();
        Duration latency = r.latency();
        boolean subMinute = latency != null ? latency.compareTo(Duration.ofMinutes(1)) < 0 : r.liveNumbers();
        boolean subHour = subMinute || latency != null && latency.compareTo(Duration.ofHours(1)) < 0;
        // a declared latency decides; the reporting cadence only when no latency is declared
        boolean coarseReporting = latency == null && (r.reporting().equals("daily") || r.reporting().equals("weekly"));
        if (latency != null && r.liveNumbers() && !subMinute) {
            reasons.add("live_numbers is true but the latency is " + human(latency) + ": the latency decides");
        }
        Mode mode;
        if (subMinute && r.history()) {
            mode = Mode.HYBRID;
            reasons.add((latency == null ? "live numbers are needed (no latency declared: taken as under a minute)"
                    : "a latency of " + human(latency) + " (< 1 min) is needed") + ": only a hot path delivers that");
            reasons.add("warehouse-grade history is needed too: the batch path keeps versioned partitions, backfill and audit,"
                    + " and reconciles the live numbers after each load");
        } else if (subMinute) {
            mode = Mode.STREAMING;
            reasons.add((latency == null ? "live numbers (no latency declared: taken as under a minute)" : "a latency of " + human(latency)
                    + " (< 1 min)") + " needs a hot path");
            reasons.add("no warehouse history is needed, so no batch path");
        } else if (subHour) {
            mode = Mode.MICRO_BATCH;
            reasons.add("a latency of " + human(latency) + " (≥ 1 min, < 1 h) is met by batch runs every hour or per fire: no hot path to"
                    + " operate");
        } else {
            mode = Mode.BATCH;
            reasons.add(latency != null ? "a latency of " + human(latency) + " (≥ 1 h) is met by batch"
                    : coarseReporting ? "reporting is " + r.reporting() + ": batch loads of each partition meet it"
                    : "no latency target below an hour is declared: batch");
        }
        if (subMinute && r.peakEventsPerSecond() != null && r.peakEventsPerSecond() > HIGH_RATE) {
            String kind = postgres(spec) ? "PostgreSQL" : "H2";
            long rate = consumerRate(spec);
            long consumers = (r.peakEventsPerSecond() + rate - 1) / rate;
            reasons.add(String.format(Locale.ROOT, "the peak of %,d events/s is above %,d/s: at the %,d events/s per consumer measured into"
                    + " %s it needs %d consumer%s, so the topic needs at least %d partition%s", r.peakEventsPerSecond(), HIGH_RATE, rate,
                    kind, consumers, consumers == 1 ? "" : "s", consumers, consumers == 1 ? "" : "s"));
        }
        if (r.peakRowsPerDay() != null) {
            reasons.add(String.format(Locale.ROOT, "peak volume %,d rows/day", r.peakRowsPerDay()));
        }
        return new ModeAdvice(mode, reasons, disagreements(spec, mode));
    }

    /**
     * The events/s one consumer sustains into the warehouse {@code spec} writes to: PostgreSQL's
     * measured rate for a {@code jdbc:postgresql:} URL, H2's otherwise.
     */
    public static long consumerRate(PipelineSpec spec) {
        return postgres(spec) ? MEASURED_CONSUMER_RATE_POSTGRESQL : MEASURED_CONSUMER_RATE_H2;
    }

    private static boolean postgres(PipelineSpec spec) {
        return spec.warehouse().url().startsWith("jdbc:postgresql:");
    }

    private static List<String> disagreements(PipelineSpec spec, Mode mode) {
        List<String> out = new ArrayList<>();
        boolean hot = spec.hotPath() != null;
        boolean batch = !spec.tables().isEmpty();
        switch (mode) {
            case HYBRID -> {
                if (!hot) {
                    out.add("no hot_path: live numbers need one (topic, event contract, windows)");
                } else if (spec.hotPath().reconcile() == null) {
                    out.add("hot_path has no reconcile: a hybrid design checks its live numbers against the batch truth");
                }
            }
            case STREAMING -> {
                if (!hot) {
                    out.add("no hot_path: a latency under a minute needs one");
                }
                if (batch && hot) {
                    out.add("batch layers are declared though no history is needed: a hybrid design, or drop the requirement");
                }
            }
            case MICRO_BATCH -> {
                if (hot) {
                    out.add("a hot_path is declared though batch meets the latency: it is cost without benefit");
                }
                if (spec.partitionKind() != PartitionKind.HOURLY && spec.partitionKind() != PartitionKind.PER_FIRE) {
                    out.add("partitioning is " + spec.partitionKind().id() + ": hourly or per_fire partitions meet a latency under an hour");
                }
            }
            case BATCH -> {
                if (hot) {
                    out.add("a hot_path is declared though no latency under a minute is needed: it is cost without benefit");
                }
            }
        }
        return out;
    }

    private static String human(Duration d) {
        return d.toString().substring(2).toLowerCase(Locale.ROOT);
    }
}
