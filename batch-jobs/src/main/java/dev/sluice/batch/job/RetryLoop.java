package dev.sluice.batch.job;

import dev.sluice.engine.LayerEngine;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.RetrySpec;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import dev.sluice.core.SluiceException;
import dev.sluice.lineage.LineageEmitter;
import dev.sluice.lineage.LineageTally;
import dev.sluice.lineage.store.LineageRepository;
import dev.sluice.warehouse.Warehouse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.job.parameters.JobParameters;
import org.springframework.batch.core.job.parameters.JobParametersBuilder;
import org.springframework.batch.core.launch.JobExecutionAlreadyRunningException;
import org.springframework.batch.core.step.StepExecution;

/**
 * Launches the job of one attempt and retries a step that failed with a retriable error
 * ({@link RetriableErrors}), as the spec's {@code execution.retry} allows: a restart of the same
 * job instance after the policy's backoff, until the job completes, is stopped, or fails otherwise.
 * Each launch has its own lineage emitter, tracked by the runner's {@link LineageTally}.
 *
 * <p>Logs as {@link PipelineRunner}. Thread-safe for runs of different partitions; the retry
 * observer may be replaced at any time ({@link #observe}).
 */
final class RetryLoop {

    private static final Logger LOG = LoggerFactory.getLogger(PipelineRunner.class);

    private final Warehouse warehouse;
    private final BatchInfrastructure batch;
    private final MedallionJobFactory jobs;
    private final LineageTally lineage;
    private volatile PipelineRunner.RetryObserver retryObserver = PipelineRunner.RetryObserver.NONE;

    RetryLoop(Warehouse warehouse, BatchInfrastructure batch, MedallionJobFactory jobs, LineageTally lineage) {
        this.warehouse = warehouse;
        this.batch = batch;
        this.jobs = jobs;
        this.lineage = lineage;
    }

    /** Tells {@code observer} (not null) of each retry from now on. */
    void observe(PipelineRunner.RetryObserver observer) {
        this.retryObserver = Objects.requireNonNull(observer);
    }

    /**
     * The last job execution of a run (after its retries), what its lineage emitters did (summed
     * over its launches) and the retries' warnings (one line each, in order; empty when none).
     */
    record Executed(JobExecution execution, LineageEmitter.Stats lineage, List<String> retried) {
    }

    /** A job execution and what its lineage emitter did (final: the emitter is closed). */
    private record Launched(JobExecution execution, LineageEmitter.Stats lineage) {
    }

    /**
     * Launches the job and retries a step that failed with a retriable error, as its
     * {@code execution.retry} allows, until it completes, is stopped or fails otherwise.
     *
     * @throws RunRefusedException when Spring Batch has an execution of the attempt marked running
     * @throws SluiceException when Spring Batch refuses to start the job otherwise
     */
    Executed execute(LayerEngine engine, PipelineSpec spec, Partition partition, RunOptions options, AttemptPlanner.Attempt attempt) {
        RunId run = attempt.run();
        List<String> only = options.tables();
        JobParameters params = new JobParametersBuilder()
                .addString("partition", partition.key(), true)
                .addLong("attempt", (long) attempt.number(), true)
                .addString("run.id", run.toString(), false)
                .addString("spec.hash", spec.hash(), false)
                .addString("requester", String.valueOf(options.requester()), false)
                .addString("trace.id", String.valueOf(options.traceId()), false)
                .addString(PipelineRunner.TABLES, only == null ? "" : String.join(",", only), false)
                .toJobParameters();
        Launched launched = launch(engine, spec, partition, run, params, attempt.number(), attempt.restart(), options);
        JobExecution execution = launched.execution();
        LineageEmitter.Stats lineageStats = launched.lineage();
        List<String> retried = new ArrayList<>();
        Map<String, Integer> tries = new HashMap<>();
        while (execution.getStatus() != BatchStatus.COMPLETED && RunControl.get().reason(run) == null
                && !RunControl.get().shuttingDown()) {
            StepExecution failed = execution.getStepExecutions().stream().filter(se -> se.getStatus() == BatchStatus.FAILED)
                    .findFirst().orElse(null);
            if (failed == null || failed.getFailureExceptions().isEmpty()
                    || !RetriableErrors.retriable(failed.getFailureExceptions().get(0))) {
                break;
            }
            String step = failed.getStepName();
            RetrySpec policy = spec.execution().retry(step);
            int tried = tries.merge(step, 1, Integer::sum);
            if (tried >= policy.maxAttempts()) {
                retried.add("step " + step + " failed with a retriable error " + tried + " time(s), its execution.retry.max_attempts");
                break;
            }
            Duration wait = policy.delay(tried);
            String why = RunSummaries.reason(failed.getFailureExceptions());
            LOG.warn("step {} failed with a retriable error ({}); retry {} of {} in {} ms", step, why, tried, policy.maxAttempts() - 1,
                    wait.toMillis());
            retryObserver.retrying(run, step, tried, wait, failed.getFailureExceptions().get(0));
            if (!pause(wait)) {
                break;
            }
            retried.add("step " + step + " failed with a retriable error (" + why + ") and was retried after " + wait.toMillis() + " ms");
            launched = launch(engine, spec, partition, run, params, attempt.number(), true, options);
            execution = launched.execution();
            lineageStats = lineageStats.plus(launched.lineage());
        }
        return new Executed(execution, lineageStats, retried);
    }

    private Launched launch(LayerEngine engine, PipelineSpec spec, Partition partition, RunId run, JobParameters params, int attempt, boolean restart,
            RunOptions options) {
        try {
            LineageEmitter emitter = lineage.track(LineageEmitter.of(spec.lineage(), PipelineRunner.VERSION,
                    new LineageRepository(warehouse.dsl())));
            JobExecution execution;
            try (emitter) {
                execution = batch.operator().start(jobs.job(engine, spec, partition, run, emitter, restart, options.parent(), options.wave(),
                        options.tables()), params);
            }
            return new Launched(execution, emitter.stats());
        } catch (JobExecutionAlreadyRunningException e) {
            throw new RunRefusedException("attempt " + attempt + " of partition " + partition + " of pipeline "
                    + spec.name() + " (run " + run + ") has an execution marked running in Spring Batch's repository;"
                    + " wait for it to end, or add --recover-stale if its process is known to be gone.");
        } catch (Exception e) {
            throw new SluiceException("Spring Batch refused to start partition " + partition + ": " + e.getMessage(), e);
        }
    }

    /** Waits {@code wait} before a retry; false when the process began to stop meanwhile (no retry then). */
    private static boolean pause(Duration wait) {
        long end = System.nanoTime() + wait.toNanos();
        try {
            while (System.nanoTime() < end) {
                if (RunControl.get().shuttingDown()) {
                    return false;
                }
                Thread.sleep(Math.max(1, Math.min(100, (end - System.nanoTime()) / 1_000_000)));
            }
            return !RunControl.get().shuttingDown();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
