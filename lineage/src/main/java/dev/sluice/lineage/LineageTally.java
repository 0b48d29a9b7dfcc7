package dev.sluice.lineage;

import java.util.ArrayList;
import java.util.List;

/**
 * The lineage statistics of one process: what every emitter it {@linkplain #track tracks} did,
 * those still open (their queue now) and those closed (their final counts). A process that runs
 * jobs (the scheduler) keeps one, so that its metrics say how deep its lineage queues are and how
 * many events were sent, dropped or failed since it started. Thread-safe.
 *
 * <p>Usage: {@code try (LineageEmitter e = tally.track(LineageEmitter.of(spec, version))) {…}}
 */
public final class LineageTally {

    private final List<LineageEmitter> open = new ArrayList<>();
    private LineageEmitter.Stats closed = LineageEmitter.Stats.NONE;

    /**
     * {@code emitter}, tallied here until it is closed (through the returned emitter, which
     * delegates to it), then its final counts.
     */
    public LineageEmitter track(LineageEmitter emitter) {
        synchronized (this) {
            open.add(emitter);
        }
        return new LineageEmitter() {
            private boolean done;

            @Override
            public void emit(RunEvent event) {
                emitter.emit(event);
            }

            @Override
            public Stats stats() {
                return emitter.stats();
            }

            @Override
            public void close() {
                emitter.close();
                synchronized (LineageTally.this) {
                    if (!done && open.remove(emitter)) {
                        Stats last = emitter.stats(); // a closed emitter queues nothing (what it could not send in time is lost)
                        closed = closed.plus(new Stats(0, last.sent(), last.dropped(), last.failed()));
                    }
                    done = true;
                }
            }
        };
    }

    /**
     * The sum over every tracked emitter: the events queued in the open ones now, and sent,
     * dropped and failed by all of them so far.
     */
    public synchronized LineageEmitter.Stats stats() {
        LineageEmitter.Stats sum = closed;
        for (LineageEmitter e : open) {
            sum = sum.plus(e.stats());
        }
        return sum;
    }
}
