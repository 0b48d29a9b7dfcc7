package dev.sluice.app.console;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.LongSupplier;

/**
 * The pace of a task in items per second of wall time, and the time left at that pace. The pace is
 * taken to now over a window that reaches back at least {@value #WINDOW} completions and at least
 * {@link #MIN_SPAN} of wall time, to the completion that many back (or to the task's start when the
 * task is younger). So:
 * <ul>
 *   <li>a slow first item (the first partition also starts Spark) leaves the pace once a minute has
 *       passed after it;</li>
 *   <li>items that finish together (a backfill wave's partitions, within milliseconds) do not make
 *       the pace thousands per minute: the window spans at least a minute, measured to now, so the
 *       pace between waves is a wave's items over the time the waves take;</li>
 *   <li>the pace falls while nothing completes, as the time left grows.</li>
 * </ul>
 * Thread-safe.
 */
final class RecentRate {

    /** Completions the window reaches back at least. */
    static final int WINDOW = 10;
    /** Wall time the window spans at least. */
    static final Duration MIN_SPAN = Duration.ofMinutes(1);

    private final LongSupplier nanoTime;
    private final long started;
    private final Deque<long[]> completions = new ArrayDeque<>(); // {nanos, count}, oldest first

    RecentRate(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
        this.started = nanoTime.getAsLong();
    }

    /** Notes that {@code done} items are complete, now. */
    synchronized void completed(long done) {
        if (!completions.isEmpty() && completions.peekLast()[1] >= done) {
            return;
        }
        long now = nanoTime.getAsLong();
        completions.addLast(new long[] {now, done});
        // the oldest is no longer wanted once the next one is itself far enough back
        while (completions.size() > WINDOW + 1) {
            Iterator<long[]> it = completions.iterator();
            it.next();
            if (now - it.next()[0] < MIN_SPAN.toNanos()) {
                break;
            }
            completions.removeFirst();
        }
    }

    /** Items per second over the window, to now; empty before the first completion. */
    synchronized OptionalDouble perSecond() {
        if (completions.isEmpty()) {
            return OptionalDouble.empty();
        }
        long now = nanoTime.getAsLong();
        long done = completions.peekLast()[1];
        long[] from = {started, 0};
        int back = 0;
        for (Iterator<long[]> it = completions.descendingIterator(); it.hasNext(); ) {
            long[] c = it.next();
            if (back++ >= WINDOW && now - c[0] >= MIN_SPAN.toNanos()) {
                from = c;
                break;
            }
        }
        double seconds = (now - from[0]) / 1e9;
        return seconds <= 0 ? OptionalDouble.empty() : OptionalDouble.of((done - from[1]) / seconds);
    }

    /** Time left for {@code total} items at {@link #perSecond()}; empty before the first completion. */
    synchronized Optional<Duration> remaining(long total) {
        OptionalDouble rate = perSecond();
        if (rate.isEmpty() || rate.getAsDouble() <= 0) {
            return Optional.empty();
        }
        double left = (total - completions.peekLast()[1]) / rate.getAsDouble();
        return Optional.of(Duration.ofMillis(Math.max(0, Math.round(left * 1000))));
    }
}
