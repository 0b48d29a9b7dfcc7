package dev.sluice.batch.job;

import dev.sluice.control.run.RunRepository;
import dev.sluice.control.run.StopCause;

import dev.sluice.config.PipelineSpec;
import dev.sluice.core.FaultPoints;
import dev.sluice.core.RunId;
import dev.sluice.core.SluiceException;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.jooq.DSLContext;
import org.jooq.ExecuteContext;
import org.jooq.ExecuteListener;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.launch.JobOperator;

/**
 * Stops running jobs of this process, for three reasons:
 * <ul>
 *   <li>a step ran past its timeout ({@code execution.step_timeout} or the step's own);</li>
 *   <li>someone asked: {@code sluice cancel <run-id>} records a request in {@code sluice.run} (from
 *       any process), which the process running the job sees within {@code execution.control_poll};</li>
 *   <li>this process is shutting down ({@link #stopAll}: SIGTERM, SIGINT).</li>
 * </ul>
 * A stop marks the job execution STOPPING in Spring Batch's repository: a Bronze step ends at its
 * next chunk boundary (the chunks it committed stay, a restart reads on after them); the running
 * statement of a Silver/Gold step is cancelled (its transaction rolls back, nothing of it is
 * published). The attempt is then recorded STOPPED with the reason, and restarts from the stopped
 * step. A quality gate's Spark evaluation is not interrupted: the job stops when it has ended.
 * One instance per JVM ({@link #get()}); its checks run on one daemon thread. Thread-safe.
 */
public final class RunControl {

    private static final Logger LOG = LoggerFactory.getLogger(RunControl.class);
    private static final RunControl INSTANCE = new RunControl();

    /** Words every shutdown's stop reason holds: runs stopped so are resumed by the scheduler's restart. */
    public static final String SHUTDOWN = "shutting down";

    private final ScheduledExecutorService checks = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "sluice-run-control");
        t.setDaemon(true);
        return t;
    });
    private final Map<RunId, Running> running = new ConcurrentHashMap<>();
    private final CountDownLatch shuttingDown = new CountDownLatch(1);

    private RunControl() {
    }

    /** The instance of this JVM. */
    public static RunControl get() {
        return INSTANCE;
    }

    /** One running job: what stops it and why it was stopped. */
    private static final class Running {
        final PipelineSpec spec;
        final RunRepository runs;
        final JobOperator operator;
        volatile @Nullable JobExecution execution;
        volatile @Nullable String step;
        volatile long deadlineNanos = Long.MAX_VALUE;
        volatile @Nullable Duration timeout;
        final AtomicReference<@Nullable Stop> reason = new AtomicReference<>();
        final AtomicReference<@Nullable Statement> statement = new AtomicReference<>();
        volatile @Nullable ScheduledFuture<?> poll;

        Running(PipelineSpec spec, DSLContext dsl, JobOperator operator) {
            this.spec = spec;
            this.runs = new RunRepository(dsl);
            this.operator = operator;
        }
    }

    /** Starts watching {@code run}: its timeouts and cancel requests. Called as its job starts. */
    void started(RunId run, PipelineSpec spec, DSLContext dsl, JobOperator operator, JobExecution execution) {
        Running r = running.computeIfAbsent(run, k -> new Running(spec, dsl, operator));
        r.execution = execution;
        r.reason.set(null);
        long poll = Math.max(10, spec.execution().controlPoll().toMillis());
        r.poll = checks.scheduleWithFixedDelay(() -> check(run), poll, poll, TimeUnit.MILLISECONDS);
        if (shuttingDown.getCount() == 0) {
            stop(run, StopCause.SHUTDOWN, "this process is shutting down");
        }
    }

    /** Stops watching {@code run}. Called as its job ends. */
    void ended(RunId run) {
        Running r = running.get(run);
        if (r != null && r.poll != null) {
            r.poll.cancel(false);
        }
    }

    /** The step {@code step} of {@code run} starts now; it may run for {@code timeout}. */
    void stepStarted(RunId run, String step, Duration timeout) {
        Running r = running.get(run);
        if (r != null) {
            r.step = step;
            r.timeout = timeout;
            r.deadlineNanos = System.nanoTime() + timeout.toNanos();
        }
    }

    /** The step of {@code run} has ended. */
    void stepEnded(RunId run) {
        Running r = running.get(run);
        if (r != null) {
            r.step = null;
            r.deadlineNanos = Long.MAX_VALUE;
        }
    }

    /**
     * A jOOQ listener that remembers the statement {@code run} is executing, so that a stop can
     * cancel it; attach it to the DSLContext of a Silver/Gold step.
     */
    ExecuteListener statements(RunId run) {
        return new ExecuteListener() {
            @Override
            public void executeStart(ExecuteContext ctx) {
                Running r = running.get(run);
                if (r != null) {
                    r.statement.set(ctx.statement());
                    // a stop that came before this statement started found none to cancel: the
                    // statement is not run (stop sets the reason, then reads the statement; this sets
                    // the statement, then reads the reason, so one of the two sees the other)
                    Stop stop = r.reason.get();
                    if (stop != null) {
                        r.statement.set(null);
                        throw new SluiceException("the run was stopped before this statement started: " + stop.reason());
                    }
                }
            }

            @Override
            public void executeEnd(ExecuteContext ctx) {
                Running r = running.get(run);
                if (r != null) {
                    r.statement.set(null);
                }
            }
        };
    }

    /** Why {@code run} was stopped, or null when it was not; forgets it. */
    @Nullable Stop takeStop(RunId run) {
        Running r = running.remove(run);
        return r == null ? null : r.reason.get();
    }

    /**
     * Throws when {@code run} was asked to stop: called before a Bronze chunk is written, so that
     * the chunk read since the stop is rolled back rather than committed (Spring Batch would look
     * at the stop only after it).
     *
     * @throws dev.sluice.core.SluiceException naming the reason
     */
    void throwIfStopped(RunId run) {
        String why = reason(run);
        if (why != null) {
            throw new SluiceException("the run was stopped before this chunk was written: " + why);
        }
    }

    /** Why {@code run} was stopped, or null while it was not. */
    public @Nullable String reason(RunId run) {
        Running r = running.get(run);
        Stop stop = r == null ? null : r.reason.get();
        return stop == null ? null : stop.reason();
    }

    /**
     * Stops every job running in this process (it is shutting down) and every job that starts from
     * now on; each ends its chunk (Bronze) or rolls back its statement (Silver/Gold) and is recorded
     * STOPPED, so that a restart resumes it. Fault pauses ({@link FaultPoints}) end too.
     */
    public void stopAll(String why) {
        if (!why.contains(SHUTDOWN)) {
            throw new IllegalArgumentException("a shutdown's reason says '" + SHUTDOWN + "' (people read it in " + RunRepository.TABLE_NAME + ")");
        }
        shuttingDown.countDown();
        FaultPoints.release();
        running.keySet().forEach(run -> stop(run, StopCause.SHUTDOWN, why));
    }

    /** True when {@link #stopAll} was called. */
    public boolean shuttingDown() {
        return shuttingDown.getCount() == 0;
    }

    /** Stops {@code run} for {@code cause} if it runs in this process; the first stop given is kept. */
    public boolean stop(RunId run, StopCause cause, String why) {
        Running r = running.get(run);
        if (r == null || !r.reason.compareAndSet(null, new Stop(cause, why))) {
            return r != null;
        }
        MDC.put("run_id", run.toString());
        MDC.put("pipeline", r.spec.name());
        try {
            LOG.warn("stopping run {}: {}", run, why);
        } finally {
            MDC.remove("run_id");
            MDC.remove("pipeline");
        }
        JobExecution e = r.execution;
        if (e != null) {
            try {
                r.operator.stop(e);
            } catch (Exception ex) {
                LOG.debug("Spring Batch did not mark run {} STOPPING: {}", run, ex.toString());
            }
        }
        Statement s = r.statement.get();
        if (s != null) {
            try {
                s.cancel();
            } catch (SQLException ex) {
                LOG.warn("could not cancel the running statement of run {}: {}", run, ex.getMessage());
            }
        }
        return true;
    }

    private void check(RunId run) {
        Running r = running.get(run);
        if (r == null || r.reason.get() != null) {
            return;
        }
        try {
            if (System.nanoTime() > r.deadlineNanos) {
                stop(run, StopCause.TIMEOUT, "step " + r.step + " ran past its timeout " + r.timeout + " (execution."
                        + (r.spec.execution().stepTimeouts().containsKey(r.step) ? "steps." + r.step + ".timeout" : "step_timeout")
                        + "; a quality gate's Spark pass is not interrupted, so a gate may overrun it)");
                return;
            }
            Optional<RunRepository.CancelRequest> request = r.runs.cancelRequest(run);
            if (request.isPresent()) {
                stop(run, StopCause.CANCEL, "cancelled by " + request.get().requestedBy() + " at " + request.get().requestedAt());
            }
        } catch (RuntimeException e) {
            LOG.debug("run control check of {} failed: {}", run, e.toString());
        }
    }

    /**
     * Records a cancel request for {@code run} (any process may): the process running it stops it
     * within its {@code execution.control_poll}.
     *
     * @return true when the run was running (STARTED) and the request was recorded
     */
    public static boolean requestCancel(DSLContext dsl, RunId run, String requester) {
        return new RunRepository(dsl).requestCancel(run, requester);
    }

    /**
     * Why a run was stopped.
     *
     * @param cause what stopped it
     * @param reason one line for people (recorded in {@code sluice.run.exit_message})
     */
    public record Stop(StopCause cause, String reason) {
    }
}
