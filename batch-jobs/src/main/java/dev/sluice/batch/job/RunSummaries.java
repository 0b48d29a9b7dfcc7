package dev.sluice.batch.job;

import dev.sluice.control.run.LineageCounts;
import dev.sluice.control.run.RunRepository;
import dev.sluice.control.run.RunStatus;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.batch.bronze.BronzeItemReader;
import dev.sluice.batch.gate.GateStep;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.Layer;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import dev.sluice.core.SluiceException;
import dev.sluice.lineage.LineageEmitter;
import dev.sluice.warehouse.Warehouse;
import dev.sluice.warehouse.meta.ErasureLogTable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.infrastructure.item.ExecutionContext;

/**
 * The summaries of a {@link PipelineRunner}'s runs: a {@link RunSummary} built from a job
 * execution (steps of this execution, and those completed before a restart from Spring Batch's
 * repository), and the end of a run: its summary recorded in {@code sluice.run}, its warnings
 * logged, the {@link RunListener}s told.
 *
 * <p>Logs as {@link PipelineRunner} (the log file and the console's warning kinds name that
 * logger). Thread-safe when the repositories are; one partition is not summarized concurrently.
 */
final class RunSummaries {

    private static final Logger LOG = LoggerFactory.getLogger(PipelineRunner.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Warehouse warehouse;
    private final BatchInfrastructure batch;
    private final RunRepository runs;
    private final List<RunListener> listeners;

    RunSummaries(Warehouse warehouse, BatchInfrastructure batch, RunRepository runs, List<RunListener> listeners) {
        this.warehouse = warehouse;
        this.batch = batch;
        this.runs = runs;
        this.listeners = List.copyOf(listeners);
    }

    /**
     * The run's summary (STOPPED with its cause when it was stopped), recorded in {@code sluice.run}
     * with its lineage counts, its warnings logged and told to the listeners.
     */
    RunSummary finish(PipelineSpec spec, Partition partition, AttemptPlanner.Attempt attempt, RetryLoop.Executed executed) {
        RunControl.Stop stopped = RunControl.get().takeStop(attempt.run());
        JobExecution execution = executed.execution();
        RunSummary summary = summarize(spec, partition, attempt.number(), attempt.run(), attempt.restart(), execution);
        if (stopped != null && !summary.completed()) {
            summary = summary.stopped(stopped.cause(), "stopped: " + stopped.reason() + " (a plain run restarts it from the stopped step)",
                    executed.retried());
        } else if (!executed.retried().isEmpty()) {
            summary = summary.withWarnings(executed.retried());
        }
        runs.finish(attempt.run(), summary.status(), summary.stopCause(), execution.getId(), summary.failure(), toJson(summary),
                counts(executed.lineage()));
        summary.warnings().forEach(RunSummaries::logWarning);
        notifyListeners(spec, summary);
        LOG.info("attempt {} {} in {} ms", attempt.number(), summary.status(), summary.elapsedMs());
        return summary;
    }

    /** Tells every {@link RunListener} of the runner; a listener's failure is logged, never the run's. */
    private void notifyListeners(PipelineSpec spec, RunSummary summary) {
        for (RunListener l : listeners) {
            try {
                l.finished(spec, summary);
            } catch (RuntimeException e) {
                LOG.warn("run listener {} failed: {}", l.getClass().getName(), e.toString());
            }
        }
    }

    /** Logs one summary warning; a quality check's carries its kind ({@link PipelineRunner#WARNING_KIND}). */
    private static void logWarning(String warning) {
        int at = warning.indexOf(" WARNED: ");
        var event = LOG.atWarn();
        if (warning.startsWith("quality ") && at > 0) {
            event = event.addKeyValue(PipelineRunner.WARNING_KIND, warning.substring(0, at));
        }
        event.log("{}", warning);
    }

    /**
     * The summary of attempt {@code attempt} ({@code run}) of {@code partition} as {@code execution}
     * ended: COMPLETED when the job completed, else FAILED with the first failed step's reason.
     */
    RunSummary summarize(PipelineSpec spec, Partition partition, int attempt, RunId run, boolean restart, JobExecution execution) {
        List<StepSummary> steps = new ArrayList<>();
        long rowsRead = 0, bronze = 0, silver = 0, collapsed = 0, quarantined = 0, gold = 0;
        List<String> warnings = new ArrayList<>();
        String failure = null;
        Map<String, StepExecution> current = new HashMap<>();
        execution.getStepExecutions().forEach(se -> current.put(se.getStepName(), se));
        for (TableSpec t : spec.tables()) {
            // this execution's steps carry their exceptions; steps completed before a restart come from the repository
            StepExecution se = current.containsKey(t.stepName()) ? current.get(t.stepName())
                    : batch.repository().getLastStepExecution(execution.getJobInstance(), t.stepName());
            if (se == null) {
                continue;
            }
            ExecutionContext ctx = se.getExecutionContext();
            String stepWarnings = ctx.getString(BronzeItemReader.WARNINGS_KEY, "");
            if (!stepWarnings.isEmpty() && se.getJobExecutionId() == execution.getId()) {
                warnings.addAll(List.of(stepWarnings.split("\n")));
            }
            long in = ctx.getLong(StepMetrics.INPUT, 0L);
            long q = ctx.getLong(StepMetrics.QUARANTINED, 0L);
            long c = ctx.getLong(StepMetrics.COLLAPSED, 0L);
            long elapsed = se.getStartTime() == null || se.getEndTime() == null ? 0
                    : Duration.between(se.getStartTime(), se.getEndTime()).toMillis();
            boolean earlier = se.getJobExecutionId() != execution.getId();
            steps.add(new StepSummary(t.stepName(), t.layer(), StepStatus.of(se.getStatus().name()),
                    t.layer() == Layer.BRONZE ? se.getReadCount() : 0, se.getWriteCount(), in, q, c, elapsed, earlier,
                    Boolean.parseBoolean(ctx.getString(StepMetrics.UNCHANGED, "false")), false));
            boolean partitionedData = t.partitioned();
            if (partitionedData && t.layer() == Layer.BRONZE && !earlier) {
                rowsRead += se.getReadCount();
            } else if (partitionedData && t.layer() == Layer.SILVER) {
                bronze += t.inputTable().flatMap(spec::table).filter(i -> i.layer() == Layer.BRONZE).isPresent() ? in : 0;
                silver += se.getWriteCount();
                collapsed += c;
                quarantined += q;
            } else if (partitionedData && t.layer() == Layer.GOLD && !t.isRollup()) { // a rollup rewrites its month: not this partition's rows
                gold += se.getWriteCount();
            }
            if (se.getStatus() == BatchStatus.FAILED && failure == null) {
                failure = "step " + t.stepName() + " failed: " + reason(se.getFailureExceptions());
            }
            if (t.hasGate()) {
                failure = summarizeGate(t, execution, current, steps, warnings, failure);
            }
        }
        if (bronze == 0 && steps.stream().noneMatch(st -> st.layer() == Layer.SILVER && st.status() == StepStatus.COMPLETED)) {
            // Silver did not complete: the Bronze rows are what this attempt's Bronze steps wrote
            bronze = steps.stream().filter(st -> st.layer() == Layer.BRONZE && !st.gate())
                    .filter(st -> spec.table(DatasetRef.parse(st.step())).map(TableSpec::partitioned).orElse(false))
                    .mapToLong(StepSummary::rowsWritten).sum();
        }
        if (rowsRead > 0) {
            int erasures = warehouse.dsl().fetchCount(ErasureLogTable.TABLE, DSL.field(DSL.name("pipeline")).eq(spec.name()));
            if (erasures > 0) {
                warnings.add("this run loaded " + rowsRead + " row(s) from landed files and " + erasures + " erasure request(s) are on"
                        + " record for " + spec.name() + " (" + ErasureLogTable.NAME + "): a landed file can bring an erased value back;"
                        + " repeat those erasures (sluice erase) and ask the source to remove the values");
            }
        }
        if (failure == null && execution.getStatus() != BatchStatus.COMPLETED) {
            failure = "the job ended " + execution.getStatus() + ": " + reason(execution.getAllFailureExceptions());
        }
        long elapsed = execution.getStartTime() == null || execution.getEndTime() == null ? 0
                : Duration.between(execution.getStartTime(), execution.getEndTime()).toMillis();
        RunStatus status = execution.getStatus() == BatchStatus.COMPLETED ? RunStatus.COMPLETED : RunStatus.FAILED;
        return new RunSummary(spec.name(), partition, attempt, run, status, restart, rowsRead, bronze, silver,
                collapsed, quarantined, gold, steps, elapsed, null, failure, warnings);
    }

    /** Adds the gate step of {@code t} (when it ran) to the summary; returns the run's failure so far. */
    private @Nullable String summarizeGate(TableSpec t, JobExecution execution, Map<String, StepExecution> current,
            List<StepSummary> steps, List<String> warnings, @Nullable String failure) {
        String name = GateStep.stepName(t);
        StepExecution g = current.containsKey(name) ? current.get(name)
                : batch.repository().getLastStepExecution(execution.getJobInstance(), name);
        if (g == null) {
            return failure;
        }
        ExecutionContext ctx = g.getExecutionContext();
        boolean earlier = g.getJobExecutionId() != execution.getId();
        long elapsed = g.getStartTime() == null || g.getEndTime() == null ? ctx.getLong(StepMetrics.GATE_ELAPSED_MS, 0L)
                : Duration.between(g.getStartTime(), g.getEndTime()).toMillis();
        steps.add(new StepSummary(name, t.layer(), StepStatus.of(g.getStatus().name()), 0, 0, 0, 0, 0, elapsed, earlier, false, true));
        String w = ctx.getString(StepMetrics.GATE_WARNINGS, "");
        if (!w.isEmpty() && !earlier) {
            warnings.addAll(List.of(w.split("\n")));
        }
        if (g.getStatus() == BatchStatus.FAILED && failure == null) {
            return "step " + name + " failed: " + reason(g.getFailureExceptions());
        }
        return failure;
    }

    /** One paragraph: the message of the first Sluice exception in the causes, else the root cause's. */
    static String reason(List<Throwable> failures) {
        if (failures.isEmpty()) {
            return "no exception was recorded";
        }
        Throwable t = failures.get(0);
        Throwable root = t;
        while (t != null) {
            if (t instanceof SluiceException) {
                return t.getMessage();
            }
            root = t;
            t = t.getCause();
        }
        String m = root.getMessage() == null ? "" : root.getMessage().lines().findFirst().orElse("");
        m = m.replaceFirst(";? *SQL statement:$", "");
        return root.getClass().getSimpleName() + (m.isEmpty() ? "" : ": " + m);
    }

    /** {@code s} as the JSON recorded in {@code sluice.run}, or {@code {}} when it cannot be written. */
    static String toJson(RunSummary s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (JsonProcessingException e) {
            return "{}";
        }
    }

    /** The counts {@code sluice.run} records of what a run's lineage emitters did. */
    static LineageCounts counts(LineageEmitter.Stats lineage) {
        return new LineageCounts(lineage.sent(), lineage.dropped(), lineage.failed());
    }
}
