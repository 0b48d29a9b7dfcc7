package dev.sluice.app.console;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.LongSupplier;

/**
 * The pace of the last completions of a task: items per second over the last {@value #WINDOW}
 * completions, and the time left at that pace. The time before the first completion (a first
 * partition also starts Spark) is never part of it. Thread-safe.
 */
final class RecentRate {

    /** Completions the rate is taken over. */
    static final int WINDOW = 10;

    private final LongSupplier nanoTime;
    private final Deque<long[]> completions = new ArrayDeque<>(); // {nanos, count}

    RecentRate(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
    }

    /** Notes that {@code done} items are complete, now. */
    synchronized void completed(long done) {
        if (!completions.isEmpty() && completions.peekLast()[1] >= done) {
            return;
        }
        completions.addLast(new long[] {nanoTime.getAsLong(), done});
        while (completions.size() > WINDOW + 1) {
            completions.removeFirst();
        }
    }

    /** Items per second over the recent completions; empty before the second one. */
    synchronized OptionalDouble perSecond() {
        if (completions.size() < 2) {
            return OptionalDouble.empty();
        }
        long[] first = completions.peekFirst();
        long[] last = completions.peekLast();
        double seconds = (last[0] - first[0]) / 1e9;
        return seconds <= 0 ? OptionalDouble.empty() : OptionalDouble.of((last[1] - first[1]) / seconds);
    }

    /** Time left for {@code total} items at the recent pace, counted down since the last completion; empty before the second completion. */
    synchronized Optional<Duration> remaining(long total) {
        OptionalDouble rate = perSecond();
        if (rate.isEmpty()) {
            return Optional.empty();
        }
        long[] last = completions.peekLast();
        double left = (total - last[1]) / rate.getAsDouble() - (nanoTime.getAsLong() - last[0]) / 1e9;
        return Optional.of(Duration.ofMillis(Math.max(0, Math.round(left * 1000))));
    }
}
