package dev.sluice.core;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Fault injection for crash tests, off unless the environment asks for it.
 *
 * <p>{@code SLUICE_FAULT_PAUSE=<point>[#n]}: the n-th time (default the first) the process reaches
 * {@code point}, it prints {@code SLUICE-FAULT-PAUSE <point>[#n]} to stderr and waits until the process
 * is told to stop ({@link #release()}: SIGTERM/SIGINT) or for ever, so that a test can stop it
 * gracefully or kill it (SIGKILL) at exactly that point and check the restart. Reaches are counted
 * per process, over every thread.
 *
 * <p>{@code SLUICE_FAULT_TRACE=<file>}: every point reached is appended to the file, one line each,
 * in the order reached; a fault schedule is drawn from such a trace of an uninterrupted run.
 *
 * <p>Points (each named with its step, table or state after the colon):
 * <ul>
 *   <li>{@code before:<step>}: a step boundary, before the step does anything;</li>
 *   <li>{@code bronze-chunk:<step>}: inside a Bronze chunk's transaction, rows written, not committed;</li>
 *   <li>{@code in-transaction:<step>}: inside a Silver/Gold step's transaction, its version written, not committed;</li>
 *   <li>{@code gate-wave:<gate step>}: a backfill partition's gate has joined its wave and waits for the others;</li>
 *   <li>{@code wave:<step>}: a backfill partition's Silver/Gold step has joined its wave, whose one job
 *       writes the table for all (the lakehouse engine), and waits for the others;</li>
 *   <li>{@code lakehouse-staged:<step>}: a lakehouse version (or a wave's) written on its branch, not yet recorded;</li>
 *   <li>{@code lakehouse-publishing:<step>}: a lakehouse {@code merge-on-key} version checked against the
 *       published one in the control plane, its Iceberg commit not yet made;</li>
 *   <li>{@code lakehouse-published:<step>}: a lakehouse version's files made main's, the control plane not yet told;</li>
 *   <li>{@code lakehouse-rolled-back:<table>}: a lakehouse rollback's Iceberg commit made (main holds the
 *       target version's files), the control plane not yet told;</li>
 *   <li>{@code before-publish:<table>}: a gate passed, its results committed, the version about to be
 *       published in the step's transaction;</li>
 *   <li>{@code published:<table>}: the version's publication committed, the gate step not yet recorded COMPLETED;</li>
 *   <li>{@code rolling-back:<table>}: a warehouse rollback's versions chosen under the lock of the
 *       partition's published row, nothing published or logged yet;</li>
 *   <li>{@code backfill-partition:<state>}: a backfill partition's state ({@code RUNNING}, then its outcome) just committed;</li>
 *   <li>{@code run-record:started}, {@code run-record:finished}: {@code sluice.run}'s row of the attempt
 *       just marked STARTED (a start or a restart) or ended;</li>
 *   <li>{@code hot-batch:in-transaction}, {@code hot-batch:windows-merged}, {@code hot-batch:offsets-stored},
 *       {@code hot-batch:committed}: the hot path's batch written (events and quarantine) but its windows
 *       not yet merged, its window rows merged in the same transaction but its offsets not yet stored,
 *       its offsets stored in the same transaction (not committed), and the transaction committed
 *       before the offsets are committed to Kafka.</li>
 * </ul>
 * Thread-safe.
 */
public final class FaultPoints {

    private static final @Nullable String SETTING = System.getenv("SLUICE_FAULT_PAUSE");
    private static final @Nullable String POINT = SETTING == null ? null : SETTING.replaceFirst("#\\d+$", "");
    private static final int NTH = SETTING == null || !SETTING.matches(".*#\\d+$") ? 1
            : Integer.parseInt(SETTING.substring(SETTING.lastIndexOf('#') + 1));
    private static final AtomicInteger REACHED = new AtomicInteger();
    private static final CountDownLatch RELEASED = new CountDownLatch(1);
    private static final @Nullable Path TRACE = traceFile(System.getenv("SLUICE_FAULT_TRACE"));
    private static volatile @Nullable Consumer<String> observer;

    private FaultPoints() {
    }

    private static @Nullable Path traceFile(@Nullable String setting) {
        return setting == null || setting.isBlank() ? null : Path.of(setting);
    }

    /** Ends every pause, now and to come (the process is stopping). */
    public static void release() {
        RELEASED.countDown();
    }

    /**
     * Tells {@code to} of every point reached from now on, on the reaching thread, until the
     * returned handle is closed (tests that run the CLI in their own JVM draw schedules this way).
     * One observer at a time: a second replaces the first.
     */
    public static AutoCloseable observe(Consumer<String> to) {
        observer = to;
        return () -> observer = null;
    }

    /** Marks that {@code point} is reached: traced and observed when asked, and a pause when it is the configured one. */
    public static void reach(String point) {
        Consumer<String> o = observer;
        if (o != null) {
            o.accept(point);
        }
        if (TRACE != null) {
            trace(point);
        }
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

    private static synchronized void trace(String point) {
        try {
            Files.writeString(TRACE, point + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to SLUICE_FAULT_TRACE " + TRACE, e);
        }
    }
}
