package dev.sluice.config;

import dev.sluice.core.Layer;
import dev.sluice.core.PartitionKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Reads {@code hot_path.reconcile}, how the live windows are reconciled with the batch mart
 * ({@link ReconcileSpec}):
 * <pre>
 * reconcile:
 *   window: gold.airport_delays_live     # required: a tumbling window of this hot path whose size divides a partition
 *   against: gold.airport_daily_delays   # required: a Gold table of this pipeline partitioned like it (not a rollup)
 *   keys: [origin]                       # required: group_by columns of the window and columns of against
 *   count: flights                       # required: a count measure of the window and a column of against
 *   averages: [avg_delay_min]            # optional: avg measures of the window and columns of against
 *   relative_tolerance: 1e-9             # default 1e-9; a number &gt;= 0
 *   severity: warn                       # warn (default) or error
 * </pre>
 * Problems are added to the cursor's list with their key paths; nothing is thrown for bad content.
 * Stateless.
 */
final class ReconcileReader {

    private static final double DEFAULT_RELATIVE_TOLERANCE = 1e-9;

    private ReconcileReader() {
    }

    /**
     * The reconciliation of map {@code r}, or null when its window or its {@code against} table is
     * not valid (reported).
     *
     * @param windows the hot path's valid windows
     * @param tables the pipeline's valid layer tables
     * @param partitionKind the pipeline's partitioning, which the window's size must divide
     */
    static @Nullable ReconcileSpec read(YamlCursor r, List<WindowSpec> windows, List<TableSpec> tables, PartitionKind partitionKind) {
        r.allowOnly(Set.of("window", "against", "keys", "count", "averages", "relative_tolerance", "severity"));
        String windowText = r.text("window", true).orElse("");
        WindowSpec window = windows.stream().filter(w -> w.table().qualifiedName().equals(windowText)).findFirst().orElse(null);
        if (window == null) {
            r.problem("window", windowText, "not a window of this hot path");
        } else if (window.kind() != WindowSpec.Kind.TUMBLING) {
            r.problem("window", windowText, "a reconciled window is tumbling (each event counted once); it is " + window.kind().name().toLowerCase(Locale.ROOT));
        } else if (window.size() != null && window.size().toMillis() > 0 && !divides(window.size(), partitionKind)) {
            // a window without a valid size has its problem reported where the window is read
            r.problem("window", windowText, "its size " + window.size() + " does not divide a " + partitionKind.id() + " partition");
        }
        String againstText = r.text("against", true).orElse("");
        TableSpec against = tables.stream().filter(t -> t.table().qualifiedName().equals(againstText))
                .filter(t -> t.layer() == Layer.GOLD && t.partitioned() && !t.isRollup()).findFirst().orElse(null);
        if (against == null) {
            r.problem("against", againstText, "not a Gold table of this pipeline partitioned like it");
        }
        Set<String> againstColumns = new HashSet<>();
        if (against != null) {
            against.columns().forEach(col -> againstColumns.add(col.name()));
        }
        List<String> keys = new ArrayList<>();
        for (YamlCursor k : r.list("keys", true)) {
            k.scalar().ifPresent(key -> {
                if (window != null && !window.groupBy().contains(key) || against != null && !againstColumns.contains(key)) {
                    k.problemHere(key, "a key is a group_by column of the window and a column of " + againstText);
                }
                keys.add(key);
            });
        }
        String count = r.text("count", true).orElse("");
        if (window != null && !"count".equals(Optional.ofNullable(window.measures().get(count)).map(WindowSpec.Measure::function).orElse(""))
                || against != null && !againstColumns.contains(count)) {
            r.problem("count", count, "a count measure of the window and a column of " + againstText);
        }
        List<String> averages = new ArrayList<>();
        for (YamlCursor a : r.list("averages", false)) {
            a.scalar().ifPresent(avg -> {
                if (window != null && !"avg".equals(Optional.ofNullable(window.measures().get(avg)).map(WindowSpec.Measure::function).orElse(""))
                        || against != null && !againstColumns.contains(avg)) {
                    a.problemHere(avg, "an avg measure of the window and a column of " + againstText);
                }
                averages.add(avg);
            });
        }
        double tolerance = r.text("relative_tolerance", false).map(t -> {
            try {
                double d = Double.parseDouble(t);
                if (d < 0 || Double.isNaN(d)) {
                    r.problem("relative_tolerance", t, "a tolerance is a number >= 0");
                }
                return d;
            } catch (NumberFormatException e) {
                r.problem("relative_tolerance", t, "a tolerance is a number >= 0, e.g. 1e-9");
                return DEFAULT_RELATIVE_TOLERANCE;
            }
        }).orElse(DEFAULT_RELATIVE_TOLERANCE);
        Severity severity = r.text("severity", false).map(t -> Severity.parse(t).orElseGet(() -> {
            r.problem("severity", t, "error or warn");
            return Severity.WARN;
        })).orElse(Severity.WARN);
        if (window == null || against == null) {
            return null;
        }
        return new ReconcileSpec(window.table(), against.table(), keys, count, averages, tolerance, severity);
    }

    /** True when windows of {@code size} (aligned on the epoch) tile every partition of {@code kind} in UTC. */
    /** True when a window of {@code size} (positive) divides a partition of {@code kind}; compared in milliseconds. */
    private static boolean divides(Duration size, PartitionKind kind) {
        long hourMs = 3_600_000;
        long dayMs = 86_400_000;
        return switch (kind) {
            case HOURLY -> hourMs % size.toMillis() == 0;
            case DAILY, MONTHLY -> dayMs % size.toMillis() == 0;
            default -> false;
        };
    }
}
