package dev.sluice.app.console;

import java.io.PrintStream;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * One terminal stream (the process's stderr) shared by a progress bar and the lines printed while it
 * is shown: a line goes above the bar, which is drawn again below it, instead of being glued onto
 * the bar's line. Counts the warnings (and errors) printed, for a run's summary. The bar is cleared
 * with spaces, not terminal escapes, so that a redirected stream stays readable.
 *
 * <p>Thread-safe: a progress bar redraws from its own thread and log lines come from any thread.
 */
public final class TerminalLines {

    private static final TerminalLines STDERR = new TerminalLines(() -> System.err);

    private final Supplier<PrintStream> out;
    private @Nullable String bar;
    private long warnings;

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

    /** Warnings and errors printed so far in this process. */
    public synchronized long warnings() {
        return warnings;
    }
}
