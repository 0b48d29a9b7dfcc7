package dev.sluice.app.schedule;

import dev.sluice.batch.job.RunControl;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.control.run.RunRepository;
import dev.sluice.batch.job.RunSummary;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.Partition;
import dev.sluice.core.SluiceException;
import java.util.List;
import org.quartz.DisallowConcurrentExecution;
import org.quartz.JobExecutionContext;
import org.quartz.SchedulerException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Fired once as the scheduler starts: resumes, oldest first, every partition of the pipeline whose
 * latest attempt a shutdown stopped (SIGTERM to a scheduler or a run), each from its stopped step.
 * Partitions stopped by {@code sluice cancel} or a step timeout are left alone: someone stopped
 * them on purpose, or they would time out again; {@code sluice status} lists them. Not concurrent
 * with itself; a partition running elsewhere is refused by its job instance.
 */
@DisallowConcurrentExecution
public final class ResumeStoppedJob extends PipelineJob {

    private static final Logger LOG = LoggerFactory.getLogger(ResumeStoppedJob.class);

    @Override
    void fire(SchedulerRuntime runtime, String pipeline, JobExecutionContext context) throws SchedulerException {
        resume(runtime, pipeline, context.getScheduler().getSchedulerInstanceId());
    }

    static void resume(SchedulerRuntime runtime, String pipeline, String instance) {
        PipelineSpec spec;
        try {
            spec = runtime.spec(pipeline);
        } catch (SluiceException e) {
            LOG.error("cannot resume the stopped loads of {}: the spec cannot be loaded: {}", pipeline, e.getMessage());
            return;
        }
        List<String> stopped = new RunRepository(runtime.runner().warehouse().dsl()).latestByPartition(pipeline)
                .values().stream().filter(RunRepository.Latest::stoppedByShutdown)
                .map(RunRepository.Latest::partitionKey).toList();
        for (String key : stopped) {
            if (RunControl.get().shuttingDown()) {
                return;
            }
            MDC.put("partition", key);
            try {
                RunSummary s = runtime.runner().run(spec, new Partition(key), new RunOptions(false, "scheduler " + instance,
                        "resume after shutdown", false));
                LOG.info("partition {} stopped by a shutdown, resumed: {}", key, s.status());
            } catch (SluiceException e) {
                LOG.warn("partition {} stopped by a shutdown cannot be resumed now: {}", key, e.getMessage());
            } finally {
                MDC.remove("partition");
                MDC.remove("run_id");
            }
        }
    }
}
