package dev.sluice.batch.testkit;

import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.batch.job.RunSummary;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.FaultPoints;
import dev.sluice.core.Partition;
import dev.sluice.warehouse.Warehouse;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A run of one day started while a rollback of a table holds the lock of the partition's published
 * row: when the rollback reaches its fault point {@code rolling-back:<table>} (versions chosen,
 * nothing published or logged), the day's run is started on another thread, and the rollback goes
 * on once a session waits on a lock (or the run has ended).
 */
public final class RollbackRace {

    /**
     * What happened.
     *
     * @param rolledBackTo the version the rollback published
     * @param day the day's run, ended
     * @param waited whether a session was seen waiting on a lock while the rollback held it
     */
    public record Outcome(Integer rolledBackTo, RunSummary day, boolean waited) {
    }

    private RollbackRace() {
    }

    /**
     * Rolls {@code table}'s partition {@link Partition#NONE} back to {@code version} (in a transaction
     * of its own) while {@code day} runs plainly.
     *
     * @throws Exception when the day's run throws or takes more than 300 s
     */
    public static Outcome during(Warehouse w, PipelineRunner runner, PipelineSpec spec, TableSpec table, int version, String day)
            throws Exception {
        ExecutorService other = Executors.newSingleThreadExecutor();
        AtomicReference<Future<RunSummary>> run = new AtomicReference<>();
        AtomicBoolean waited = new AtomicBoolean();
        Integer to;
        try (AutoCloseable meanwhile = FaultPoints.observe(point -> {
            if (point.equals("rolling-back:" + table.table().qualifiedName())) {
                run.set(other.submit(() -> runner.run(spec, Partition.parseDaily(day), RunOptions.plain())));
                waited.set(BlockedSessions.await(w, run.get()::isDone));
            }
        })) {
            to = new TransactionTemplate(w.transactionManager())
                    .execute(status -> runner.engine(spec).rollback(table, Partition.NONE, version, "test", "during " + day));
        } finally {
            other.shutdown();
        }
        if (run.get() == null) {
            throw new AssertionError("the rollback of " + table.table() + " never reached rolling-back:" + table.table().qualifiedName());
        }
        return new Outcome(to, run.get().get(300, TimeUnit.SECONDS), waited.get());
    }
}
