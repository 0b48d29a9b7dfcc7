package dev.sluice.batch.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/**
 * Removes the H2 warehouses a test made ({@link TestHome#freshH2Url()}, under
 * {@code target/it-warehouses}) once it has passed (or was aborted by an assumption), and keeps
 * those of a failed test for a look: a suite used to leave 1.4 GB of them behind.
 *
 * <p>A JUnit Platform listener, registered for every test JVM that has the batch-jobs test classes
 * ({@code META-INF/services/org.junit.platform.launcher.TestExecutionListener}). A warehouse belongs
 * to the innermost test or container running when it was made: one made in a test method goes with
 * that test, one made in {@code @BeforeAll} with its class, which keeps it when any of its tests
 * failed. Assumes tests run one at a time in the JVM (JUnit's default; the build enables no
 * parallel execution). Thread-safe: a test may make warehouses from threads of its own.
 */
public final class TestWarehouses implements TestExecutionListener {

    /** The open tests and containers, innermost last, each with the warehouses made in it. */
    private static final Deque<Scope> OPEN = new ArrayDeque<>();

    private static final class Scope {
        final String id;
        final List<Path> warehouses = new ArrayList<>();
        boolean keep;

        Scope(String id) {
            this.id = id;
        }
    }

    /**
     * Records a warehouse made now, by its file base (the H2 URL's path without {@code .mv.db}).
     * Outside any test (no JUnit run) it is left alone.
     */
    static synchronized void made(Path base) {
        Scope innermost = OPEN.peekLast();
        if (innermost != null) {
            innermost.warehouses.add(base);
        }
    }

    @Override
    public void executionStarted(TestIdentifier test) {
        synchronized (TestWarehouses.class) {
            OPEN.addLast(new Scope(test.getUniqueId()));
        }
    }

    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        List<Path> remove;
        synchronized (TestWarehouses.class) {
            if (OPEN.stream().noneMatch(s -> s.id.equals(test.getUniqueId()))) {
                return; // not a scope this listener opened: leave everything as it is
            }
            Scope scope = OPEN.removeLast();
            while (!scope.id.equals(test.getUniqueId())) {
                scope = OPEN.removeLast(); // an inner scope that never finished: its warehouses stay
            }
            boolean passed = result.getStatus() != TestExecutionResult.Status.FAILED && !scope.keep;
            if (!passed) {
                Scope parent = OPEN.peekLast();
                if (parent != null) {
                    parent.keep = true; // a class keeps what its @BeforeAll made when one of its tests failed
                }
                return;
            }
            remove = scope.warehouses;
        }
        remove.forEach(TestWarehouses::delete);
    }

    /** Deletes {@code base}.mv.db, .trace.db, .lock.db and H2's other files of that database. */
    private static void delete(Path base) {
        Path dir = base.getParent();
        String name = base.getFileName().toString();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, name + ".*")) {
            for (Path f : files) {
                Files.deleteIfExists(f);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove the test warehouse " + base, e);
        }
    }
}
