package dev.sluice.app.console;

import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.DefaultProgressBarRenderer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarConsumer;
import me.tongfei.progressbar.ProgressBarStyle;
import me.tongfei.progressbar.ProgressState;

/**
 * A progress bar of partitions (me.tongfei's progressbar) on {@link TerminalLines}: lines logged
 * meanwhile print above it; its rate ({@code 12.5/min}: partitions per minute of wall time) and ETA
 * come from {@link RecentRate}: at least the last minute and the last ten completions, to now, so
 * that neither a slow first partition (Spark's start) nor a wave whose partitions finish together
 * makes them meaningless; before the first completion both show {@code ?}. Counts the warnings
 * printed while shown and sums up repeated ones by kind.
 *
 * <p>Thread-safe: {@link #step} may be called from several workers.
 */
public final class ProgressDisplay implements AutoCloseable {

    private final TerminalLines lines;
    private final RecentRate rate;
    private final ProgressBar bar;
    private final long warningsBefore;

    /** A bar of {@code total} items named {@code task} on {@code lines}, timed by the system clock. */
    public ProgressDisplay(String task, long total, TerminalLines lines) {
        this(task, total, lines, System::nanoTime);
    }

    ProgressDisplay(String task, long total, TerminalLines lines, LongSupplier nanoTime) {
        this.lines = lines;
        this.rate = new RecentRate(nanoTime);
        this.warningsBefore = lines.warnings();
        lines.forgetKinds();
        this.bar = new ProgressBarBuilder().setTaskName(task).setInitialMax(total).setUpdateIntervalMillis(500)
                .setRenderer(new Renderer(rate, total)).setConsumer(new Consumer(lines)).build();
    }

    /** Shows {@code message} (e.g. {@code 2001-02-03 running}) after the bar. */
    public synchronized void message(String message) {
        bar.setExtraMessage(" " + message);
    }

    /** One more item done; {@code message} (e.g. {@code 2001-02-03 COMPLETED}) shows after the bar. */
    public synchronized void step(String message) {
        bar.setExtraMessage(" " + message);
        bar.step();
        rate.completed(bar.getCurrent());
    }

    /** Warnings and errors printed above the bar since it was made. */
    public long warnings() {
        return lines.warnings() - warningsBefore;
    }

    /** The warnings of one kind seen more than once while shown, one line per kind ({@link TerminalLines#repeatedWarnings()}). */
    public List<String> repeatedWarnings() {
        return lines.repeatedWarnings();
    }

    /** Draws the bar a last time and ends its line. */
    @Override
    public void close() {
        bar.close();
    }

    /** The library's ASCII rendering, with the recent rate per minute and the ETA at it. */
    private static final class Renderer extends DefaultProgressBarRenderer {
        private final RecentRate rate;

        Renderer(RecentRate rate, long total) {
            super(ProgressBarStyle.ASCII, "", 1, true, new DecimalFormat("0.0", DecimalFormatSymbols.getInstance(Locale.ROOT)),
                    ChronoUnit.MINUTES, true, state -> rate.remaining(total));
            this.rate = rate;
        }

        @Override
        protected String speed(ProgressState progress) {
            var r = rate.perSecond();
            return r.isEmpty() ? "?/min" : String.format(Locale.ROOT, "%.1f/min", r.getAsDouble() * 60);
        }
    }

    /** Draws the bar through {@link TerminalLines}; as wide as the library's console consumer finds the terminal. */
    private static final class Consumer implements ProgressBarConsumer {
        private final TerminalLines lines;
        private final int width;

        Consumer(TerminalLines lines) {
            this.lines = lines;
            this.width = new ConsoleProgressBarConsumer(System.err).getMaxRenderedLength();
        }

        @Override
        public int getMaxRenderedLength() {
            return width;
        }

        @Override
        public void accept(String rendered) {
            lines.showBar(rendered);
        }

        @Override
        public void close() {
            lines.endBar();
        }
    }
}
