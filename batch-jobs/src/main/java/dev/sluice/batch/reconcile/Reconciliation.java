package dev.sluice.batch.reconcile;

import dev.sluice.config.CheckFamily;
import dev.sluice.config.HotPathSpec;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.ReconcileSpec;
import dev.sluice.config.Severity;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.Partition;
import dev.sluice.quality.Boundary;
import dev.sluice.quality.CheckResult;
import dev.sluice.quality.CheckStatus;
import dev.sluice.quality.GateResult;
import dev.sluice.warehouse.meta.HotOffsetTable;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * Compares the live windows of partition P with the batch mart's published partition P
 * ({@link ReconcileSpec}): both sides rolled up per key in one grouped query each (the live side:
 * windows whose {@code window_start} lies in [P start, P end), UTC; counts summed, averages weighted
 * by the count), then compared key by key. Keys present on one side only count as differences.
 * The result is one {@link CheckResult} ({@code reconcile_<table>}, family COMPLETENESS, boundary
 * SINK): metric = keys that differ; unexpected values = the first {@value CheckResult#SAMPLE}
 * differences ({@code ORD: flights live 510, batch 512}). The message also counts the partition's
 * events that arrived beyond the allowed lateness (kept in the sink, counted in no window), the
 * usual reason for a count difference. Averages are exact when the averaged column has no nulls.
 *
 * <p>With no live window in the partition there is nothing to compare: the result is
 * {@link CheckStatus#NO_DATA} (metric null), whatever the severity, never a difference. The live
 * tables are read only when the hot path has stored a position of its consumer group
 * ({@code sluice.hot_offset}): before its first run they do not exist, and the probe of a missing
 * table would leave an exception in H2's trace file for every partition loaded.
 * Stateless and thread-safe.
 */
public final class Reconciliation {

    private Reconciliation() {
    }

    /**
     * Reconciles partition {@code partition} of {@code spec}'s hot path.
     *
     * @throws IllegalArgumentException when the spec has no {@code hot_path.reconcile} or the
     *     partition has no nominal time range (a reference snapshot)
     */
    public static GateResult run(DSLContext dsl, PipelineSpec spec, Partition partition) {
        long started = System.nanoTime();
        HotPathSpec hot = spec.hotPath();
        if (hot == null || hot.reconcile() == null) {
            throw new IllegalArgumentException("pipeline " + spec.name() + " declares no hot_path.reconcile");
        }
        ReconcileSpec r = hot.reconcile();
        LocalDateTime from = partition.nominalStart();
        LocalDateTime to = partition.nominalEnd();
        if (from == null || to == null) {
            throw new IllegalArgumentException("partition " + partition + " has no time range to reconcile");
        }
        boolean hotPathRan = storedPositions(dsl, hot.groupId());
        Map<List<Object>, double[]> live = hotPathRan && exists(dsl, r.window())
                ? rollUp(dsl, r, r.window(), DSL.field(DSL.name("window_start"), LocalDateTime.class).ge(from)
                        .and(DSL.field(DSL.name("window_start"), LocalDateTime.class).lt(to)))
                : Map.of();
        Map<List<Object>, double[]> batch = rollUp(dsl, r, r.against(), DSL.field(DSL.name("_partition"), String.class).eq(partition.key()));
        long late = hotPathRan && exists(dsl, hot.sink()) ? late(dsl, hot, from, to) : 0;
        String lateNote = late == 0 ? "" : String.format(Locale.ROOT, "; %,d event(s) of the partition arrived beyond the allowed lateness"
                + " (in %s, in no window)", late, hot.sink().qualifiedName());
        String threshold = r.count() + " equal per " + String.join(", ", r.keys())
                + (r.averages().isEmpty() ? "" : "; " + String.join(", ", r.averages()) + " within " + r.relativeTolerance() + " relative");
        if (live.isEmpty()) {
            long batchCount = batch.values().stream().mapToLong(v -> (long) v[0]).sum();
            String message = String.format(Locale.ROOT, "%s partition %s: no live window in the partition, nothing to compare (%s);"
                            + " batch %,d %s over %,d key(s)%s",
                    r.window().qualifiedName() + " vs " + r.against().qualifiedName(), partition,
                    hotPathRan ? "the hot path delivered no event of it" : "the hot path, consumer group " + hot.groupId() + ", has stored no position yet: was it running?",
                    batchCount, r.count(), batch.size(), lateNote);
            CheckResult none = new CheckResult(r.checkId(), "expect_live_windows_to_match_batch", CheckFamily.COMPLETENESS, r.severity(),
                    CheckStatus.NO_DATA, null, "0 live / " + batchCount + " batch " + r.count(), threshold, message, 0, 0, List.of(), List.of());
            return new GateResult(r.window(), partition, Boundary.SINK, List.of(none), (System.nanoTime() - started) / 1_000_000);
        }
        TreeMap<String, List<Object>> keys = new TreeMap<>();
        live.keySet().forEach(k -> keys.put(k.toString(), k));
        batch.keySet().forEach(k -> keys.put(k.toString(), k));
        List<Object> differences = new ArrayList<>();
        long differing = 0;
        long liveCount = 0;
        long batchCount = 0;
        for (List<Object> k : keys.values()) {
            double[] l = live.get(k);
            double[] b = batch.get(k);
            liveCount += l == null ? 0 : (long) l[0];
            batchCount += b == null ? 0 : (long) b[0];
            String d = difference(r, l, b);
            if (d != null) {
                differing++;
                if (differences.size() < CheckResult.SAMPLE) {
                    differences.add(label(k) + ": " + d);
                }
            }
        }
        CheckStatus status = differing == 0 ? CheckStatus.PASSED : r.severity() == Severity.ERROR ? CheckStatus.FAILED : CheckStatus.WARNED;
        String message = String.format(Locale.ROOT, "%s partition %s: %,d of %,d key(s) differ; live %,d %s over %,d key(s), batch %,d over %,d%s",
                r.window().qualifiedName() + " vs " + r.against().qualifiedName(), partition, differing, keys.size(), liveCount, r.count(),
                live.size(), batchCount, batch.size(), lateNote);
        CheckResult check = new CheckResult(r.checkId(), "expect_live_windows_to_match_batch", CheckFamily.COMPLETENESS, r.severity(), status,
                (double) differing, liveCount + " live / " + batchCount + " batch " + r.count(), threshold,
                message, keys.size(), differing, differences, List.of());
        return new GateResult(r.window(), partition, Boundary.SINK, List.of(check), (System.nanoTime() - started) / 1_000_000);
    }

    /** Per key: [count, average 1, average 2, …] (averages weighted by the count). */
    private static Map<List<Object>, double[]> rollUp(DSLContext dsl, ReconcileSpec r, DatasetRef table, Condition where) {
        List<Field<?>> select = new ArrayList<>();
        List<Field<?>> groupBy = new ArrayList<>();
        for (String k : r.keys()) {
            Field<?> f = DSL.field(DSL.name(k));
            select.add(f);
            groupBy.add(f);
        }
        Field<Double> count = DSL.field(DSL.name(r.count()), Double.class).cast(SQLDataType.DOUBLE);
        select.add(DSL.sum(count));
        for (String a : r.averages()) {
            Field<Double> avg = DSL.field(DSL.name(a), Double.class).cast(SQLDataType.DOUBLE);
            select.add(DSL.sum(avg.mul(count)).div(DSL.nullif(DSL.sum(count), DSL.inline(BigDecimal.ZERO))));
        }
        Map<List<Object>, double[]> out = new HashMap<>();
        for (Record row : dsl.select(select).from(DSL.table(DSL.name(table.schema(), table.table()))).where(where).groupBy(groupBy).fetch()) {
            List<Object> key = new ArrayList<>();
            for (int i = 0; i < r.keys().size(); i++) {
                key.add(row.get(i));
            }
            double[] v = new double[1 + r.averages().size()];
            for (int i = 0; i < v.length; i++) {
                Object x = row.get(r.keys().size() + i);
                v[i] = x == null ? Double.NaN : ((Number) x).doubleValue();
            }
            out.put(key, v);
        }
        return out;
    }

    /** What differs between the live and batch values of one key, or null when they agree. */
    private static String difference(ReconcileSpec r, double[] l, double[] b) {
        if (l == null || b == null) {
            double[] v = l == null ? b : l;
            return String.format(Locale.ROOT, "%s %s %,d, %s none", r.count(), l == null ? "batch" : "live", (long) v[0], l == null ? "live" : "batch");
        }
        List<String> parts = new ArrayList<>();
        if ((long) l[0] != (long) b[0]) {
            parts.add(String.format(Locale.ROOT, "%s live %,d, batch %,d", r.count(), (long) l[0], (long) b[0]));
        }
        for (int i = 0; i < r.averages().size(); i++) {
            double lv = l[i + 1];
            double bv = b[i + 1];
            boolean same = Double.isNaN(lv) && Double.isNaN(bv) || Math.abs(lv - bv) <= r.relativeTolerance() * Math.max(1, Math.abs(bv));
            if (!same) {
                parts.add(String.format(Locale.ROOT, "%s live %.12g, batch %.12g", r.averages().get(i), lv, bv));
            }
        }
        return parts.isEmpty() ? null : String.join("; ", parts);
    }

    private static String label(List<Object> key) {
        return key.size() == 1 ? String.valueOf(key.get(0)) : key.toString();
    }

    private static long late(DSLContext dsl, HotPathSpec hot, LocalDateTime from, LocalDateTime to) {
        Field<LocalDateTime> at = DSL.field(DSL.name(hot.eventTime()), LocalDateTime.class);
        return dsl.fetchCount(DSL.table(DSL.name(hot.sink().schema(), hot.sink().table())),
                at.ge(from).and(at.lt(to)).and(DSL.field(DSL.name("_late"), Boolean.class).isTrue()));
    }

    /** True when the hot path stored a position of consumer group {@code groupId}: it has run, its tables exist. */
    private static boolean storedPositions(DSLContext dsl, String groupId) {
        return dsl.fetchExists(DSL.selectOne().from(HotOffsetTable.TABLE)
                .where(DSL.field(DSL.name("group_id"), String.class).eq(groupId)));
    }

    /**
     * True when {@code table} can be read. Not through {@code information_schema}: on H2 a read of
     * its metadata while another partition's run replaces a view fails that DDL ("row not found in
     * primary index SYS_DATA"). Called outside any transaction, so a failed probe aborts nothing.
     */
    private static boolean exists(DSLContext dsl, DatasetRef table) {
        try {
            dsl.fetchExists(DSL.selectOne().from(DSL.table(DSL.name(table.schema(), table.table()))).where(DSL.falseCondition()));
            return true;
        } catch (DataAccessException e) {
            return false;
        }
    }
}
