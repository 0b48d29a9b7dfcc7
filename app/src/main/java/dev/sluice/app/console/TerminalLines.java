package dev.sluice.app.console;

import dev.sluice.core.BoundedText;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * One terminal stream (the process's stderr) shared by a progress bar and the lines printed while it
 * is shown: a line goes above the bar, which is drawn again below it, instead of being glued onto
 * the bar's line. Counts the warnings (and errors), for a run's summary, and sums up repeated
 * warnings of one kind (a quality check that warns on every partition). The bar is cleared
 * with spaces, not terminal escapes, so that a redirected stream stays readable.
 *
 * <p>Thread-safe: a progress bar redraws from its own thread and log lines come from any thread.
 */
public final class TerminalLines {

    private static final TerminalLines STDERR = new TerminalLines(() -> System.err);

    private final Supplier<PrintStream> out;
    private @Nullable String bar;
    private long warnings;
    private final Map<String, RepeatedWarning> kinds = new LinkedHashMap<>();

    private TerminalLines(Supplier<PrintStream> out) {
        this.out = out;
    }

    /** Lines on {@code out} (a test's captured console). */
    public TerminalLines(PrintStream out) {
        this(() -> out);
    }

    /** The process's stderr (looked up at each write, so {@code System.setErr} is followed). */
    public static TerminalLines stderr() {
        return STDERR;
    }

    /** Draws (or redraws) the bar on the last line. */
    public synchronized void showBar(String rendered) {
        PrintStream o = out.get();
        o.print('\r');
        o.print(rendered);
        if (bar != null && bar.length() > rendered.length()) {
            o.print(" ".repeat(bar.length() - rendered.length()));
        }
        o.flush();
        bar = rendered;
    }

    /** Ends the bar's line: what follows prints below it. */
    public synchronized void endBar() {
        if (bar != null) {
            out.get().println();
            out.get().flush();
            bar = null;
        }
    }

    /** Prints {@code line} (without its line end) above the bar, if one is shown. */
    public synchronized void println(String line) {
        PrintStream o = out.get();
        if (bar != null) {
            o.print('\r');
            o.print(" ".repeat(bar.length()));
            o.print('\r');
        }
        o.println(line);
        if (bar != null) {
            o.print(bar);
        }
        o.flush();
    }

    /** Counts one warning or error printed (by the log's console appender). */
    public synchronized void warned() {
        warnings++;
    }

    /**
     * Counts one warning of {@code kind} (e.g. {@code quality transform silver.flights
     * one_row_per_key}) of {@code partition} (empty when none): true when it is the first of its kind
     * since {@link #forgetKinds()}, to be printed; the later ones are summed up
     * ({@link #repeatedWarnings()}). Every one counts in {@link #warnings()}.
     */
    public synchronized boolean warnedOf(String kind, String partition, String line) {
        warnings++;
        RepeatedWarning r = kinds.computeIfAbsent(kind, k -> new RepeatedWarning(line));
        r.count++;
        if (!partition.isEmpty()) {
            r.partitions.add(partition);
        }
        return r.count == 1;
    }

    /** Starts the sums of warnings by kind afresh (a new command's progress bar). */
    public synchronized void forgetKinds() {
        kinds.clear();
    }

    /**
     * One line per kind of warning seen more than once since {@link #forgetKinds()}, in the order
     * first seen: {@code 118 × quality transform silver.flights one_row_per_key, in 118 partition(s)
     * 2001-01-01 … 2001-06-30; the first: <its line, cut to 300 characters>}.
     */
    public synchronized List<String> repeatedWarnings() {
        List<String> out = new ArrayList<>();
        kinds.forEach((kind, r) -> {
            if (r.count > 1) {
                String where = r.partitions.isEmpty() ? ""
                        : ", in " + r.partitions.size() + " partition(s) " + r.partitions.first()
                                + (r.partitions.size() > 1 ? " … " + r.partitions.last() : "");
                out.add(String.format(Locale.ROOT, "%,d × %s%s; the first: %s", r.count, kind, where, BoundedText.cut(r.first, 300)));
            }
        });
        return out;
    }

    /** The warnings of one kind: how many, in which partitions, and the first one's line. */
    private static final class RepeatedWarning {
        private final String first;
        private final TreeSet<String> partitions = new TreeSet<>();
        private long count;

        RepeatedWarning(String first) {
            this.first = first;
        }
    }

    /** Warnings and errors printed so far in this process. */
    public synchronized long warnings() {
        return warnings;
    }
}
