package dev.sluice.app.cli;

import dev.sluice.batch.backfill.PartitionOutcome;
import dev.sluice.batch.job.RunSummary;
import dev.sluice.batch.job.StepStatus;
import dev.sluice.batch.job.StepSummary;
import dev.sluice.core.Layer;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** Prints run summaries: one run in detail, or a table of many. Stateless. */
final class RunReport {

    private RunReport() {
    }

    static void printOne(PrintWriter out, RunSummary s) {
        out.printf(Locale.ROOT, "%s %s: %s in %s (attempt %d, run %s%s)%n", s.pipeline(), s.partition(), s.status(),
                seconds(s.elapsedMs()), s.attempt(), s.runId(), s.restarted() ? ", restarted from its failed step" : "");
        out.printf(Locale.ROOT, "  rows read             %,12d%n", s.rowsRead());
        out.printf(Locale.ROOT, "  Bronze rows           %,12d%n", s.bronzeRows());
        out.printf(Locale.ROOT, "  Silver rows           %,12d%n", s.silverRows());
        out.printf(Locale.ROOT, "  duplicates collapsed  %,12d%n", s.duplicatesCollapsed());
        out.printf(Locale.ROOT, "  rows quarantined      %,12d%n", s.quarantined());
        out.printf(Locale.ROOT, "  Gold rows             %,12d%n", s.goldRows());
        out.println();
        out.printf(Locale.ROOT, "  %-32s %-10s %12s %12s %9s%n", "step", "status", "rows in", "rows out", "elapsed");
        for (StepSummary st : s.steps()) {
            if (st.gate()) {
                out.printf(Locale.ROOT, "  %-32s %-10s %12s %12s %9s%s%n", st.step(), st.status(), "", "", seconds(st.elapsedMs()),
                        st.earlierExecution() ? "  (completed before the restart)" : "  (quality gate: sluice quality show)");
                continue;
            }
            long in = st.layer() == Layer.BRONZE ? st.rowsRead() : st.inputRows();
            String note = st.earlierExecution() ? "  (completed before the restart)"
                    : st.unchanged() ? "  (input unchanged: snapshot not rewritten)"
                    : st.layer() == Layer.BRONZE && st.rowsRead() == 0 && st.status() == StepStatus.COMPLETED
                            ? "  (landed files already in Bronze)" : "";
            out.printf(Locale.ROOT, "  %-32s %-10s %,12d %,12d %9s%s%n", st.step(), st.status(), in, st.rowsWritten(),
                    seconds(st.elapsedMs()), note);
        }
        for (String w : s.warnings()) {
            out.println("  warning: " + w);
        }
        if (s.failure() != null) {
            out.println();
            out.println("  " + s.failure());
            out.println("  A plain `sluice run` of this partition restarts this attempt from its failed step (steps"
                    + " that completed are kept); after fixing a landed file, --rerun starts a new attempt that reloads it.");
        }
    }

    /**
     * One line per partition, then totals. A partition's elapsed is its job's wall time (in a
     * backfill wave, its waits for the wave's other partitions included), so the total row gives
     * {@code wallMs}, the wall time of the whole range or backfill, not their sum.
     */
    static void printTable(PrintWriter out, List<PartitionOutcome> outcomes, long wallMs) {
        out.printf(Locale.ROOT, "%-12s %-10s %10s %10s %10s %6s %6s %9s %8s%n", "partition", "status", "read", "bronze",
                "silver", "dups", "quar.", "gold", "elapsed");
        long read = 0, bronze = 0, silver = 0, dups = 0, quarantined = 0, gold = 0;
        for (PartitionOutcome o : outcomes) {
            RunSummary s = o.summary();
            if (s == null) {
                out.printf(Locale.ROOT, "%-12s %-10s %s%n", o.partition(), o.status(), o.message());
                continue;
            }
            out.printf(Locale.ROOT, "%-12s %-10s %,10d %,10d %,10d %,6d %,6d %,9d %8s%n", s.partition(), s.status(),
                    s.rowsRead(), s.bronzeRows(), s.silverRows(), s.duplicatesCollapsed(), s.quarantined(), s.goldRows(),
                    seconds(s.elapsedMs()));
            read += s.rowsRead();
            bronze += s.bronzeRows();
            silver += s.silverRows();
            dups += s.duplicatesCollapsed();
            quarantined += s.quarantined();
            gold += s.goldRows();
        }
        out.printf(Locale.ROOT, "%-12s %-10s %,10d %,10d %,10d %,6d %,6d %,9d %8s%n", "total", "", read, bronze, silver,
                dups, quarantined, gold, seconds(wallMs));
        for (PartitionOutcome o : outcomes) {
            if (o.summary() != null && o.summary().failure() != null) {
                out.println(o.partition() + ": " + o.summary().failure());
            }
        }
    }

    /**
     * How many warnings (and errors) were printed above a progress bar, and where each is in full:
     * the log file, with its run, pipeline and partition. Nothing when there were none.
     */
    /**
     * The closing lines on warnings: how many, where each is in full, and one line per kind of
     * warning seen more than once ({@code repeated}: a quality check that warned on many partitions,
     * printed above the first time only).
     */
    static void printWarnings(PrintWriter out, long warnings, List<String> repeated, Path home) {
        if (warnings > 0) {
            out.printf(Locale.ROOT, "%,d warning(s)%s; each in full, with its run and partition, in %s%n", warnings,
                    repeated.isEmpty() ? " printed above" : ", the first of each check printed above, the checks that warned again summed up here",
                    home.resolve("logs/sluice.log"));
            repeated.forEach(r -> out.println("  " + r));
        }
    }

    static String seconds(long ms) {
        return String.format(Locale.ROOT, "%.2f s", ms / 1000.0);
    }
}
