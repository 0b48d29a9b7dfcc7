package dev.sluice.batch.job;

import java.util.concurrent.CountDownLatch;

/**
 * Fault injection for crash tests: when the environment variable {@code SLUICE_FAULT_PAUSE} names
 * a point, the run prints {@code SLUICE-FAULT-PAUSE <point>} to stderr when it gets there and waits
 * until the process is told to stop ({@link RunControl#stopAll}: SIGTERM/SIGINT) or for ever, so that a
 * test can stop it gracefully or kill the process at exactly that point (SIGKILL) and check the
 * restart. Points: {@code before:<step>} (a step boundary), {@code bronze-chunk:<step>} (inside
 * a Bronze chunk's transaction, rows written, not committed), {@code in-transaction:<step>} (inside
 * a Silver/Gold step's transaction, the new version written, not committed); {@code #n} after a
 * point pauses the n-th time it is reached (e.g. the second Bronze chunk). Unset, it does nothing.
 * Thread-safe.
 */
public final class FaultPoints {

    private static final String SETTING = System.getenv("SLUICE_FAULT_PAUSE");
    private static final String POINT = SETTING == null ? null : SETTING.replaceFirst("#\\d+$", "");
    private static final int NTH = SETTING == null || !SETTING.matches(".*#\\d+$") ? 1
            : Integer.parseInt(SETTING.substring(SETTING.lastIndexOf('#') + 1));
    private static final java.util.concurrent.atomic.AtomicInteger REACHED = new java.util.concurrent.atomic.AtomicInteger();

    private static final CountDownLatch RELEASED = new CountDownLatch(1);

    private FaultPoints() {
    }

    /** Ends every pause, now and to come (the process is stopping). */
    static void release() {
        RELEASED.countDown();
    }

    /** Pauses when {@code point} is the configured one, until {@link #release()}. */
    public static void reach(String point) {
        if (POINT != null && POINT.equals(point) && REACHED.incrementAndGet() == NTH) {
            System.err.println("SLUICE-FAULT-PAUSE " + SETTING);
            System.err.flush();
            try {
                RELEASED.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
