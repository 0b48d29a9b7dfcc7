package dev.sluice.batch.job;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.locks.ReentrantLock;
import org.springframework.batch.core.ExitStatus;
import org.springframework.batch.core.listener.StepExecutionListener;
import org.springframework.batch.core.step.StepExecution;

/**
 * One lock per reference snapshot table (not partitioned) of a warehouse, and per rollup partition
 * (a month that the partitions of a backfill all rebuild), held while a partition
 * job's step on it runs: partition jobs running at once in this JVM (a backfill) share the
 * snapshot, and the first to take the lock loads it while the others then find its file already in
 * Bronze and its input unchanged. A gate step that rebuilds a refused {@code merge-on-key} snapshot
 * version takes the same lock ({@link #with}). Across processes the landed-file and version keys
 * refuse the second writer (its step fails and restarts). Thread-safe.
 */
final class SnapshotLocks {

    private static final ConcurrentMap<String, ReentrantLock> LOCKS = new ConcurrentHashMap<>();

    private SnapshotLocks() {
    }

    /**
     * Runs {@code work} holding the lock of {@code table} in warehouse {@code url}: a gate step's
     * rebuild of a refused {@code merge-on-key} snapshot version writes the table as its step does.
     */
    static <T> T with(String url, String table, java.util.function.Supplier<T> work) {
        ReentrantLock lock = lock(url, table);
        lock.lock();
        try {
            return work.get();
        } finally {
            lock.unlock();
        }
    }

    private static ReentrantLock lock(String url, String table) {
        return LOCKS.computeIfAbsent(url + "|" + table, k -> new ReentrantLock(true));
    }

    /** A listener holding the lock of {@code table} in warehouse {@code url} from the step's start to its end. */
    static StepExecutionListener holding(String url, String table) {
        ReentrantLock lock = lock(url, table);
        return new StepExecutionListener() {
            @Override
            public void beforeStep(StepExecution stepExecution) {
                lock.lock();
            }

            @Override
            public ExitStatus afterStep(StepExecution stepExecution) {
                if (lock.isHeldByCurrentThread()) {
                    lock.unlock();
                }
                return null;
            }
        };
    }
}
