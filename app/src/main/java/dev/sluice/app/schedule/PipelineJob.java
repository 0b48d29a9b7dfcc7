package dev.sluice.app.schedule;

import org.quartz.Job;
import org.quartz.JobExecutionContext;
import org.quartz.SchedulerException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * What every Quartz job of a pipeline shares: the pipeline named in the job's data, the
 * {@link SchedulerRuntime} from the scheduler's context, and the pipeline in the MDC of every log
 * line of the fire.
 */
abstract class PipelineJob implements Job {

    private static final Logger LOG = LoggerFactory.getLogger(PipelineJob.class);

    /** The job data key naming the pipeline. */
    static final String PIPELINE = "pipeline";

    @Override
    public final void execute(JobExecutionContext context) {
        String pipeline = context.getJobDetail().getJobDataMap().getString(PIPELINE);
        MDC.put("pipeline", pipeline);
        try {
            SchedulerRuntime runtime = (SchedulerRuntime) context.getScheduler().getContext().get(SchedulerRuntime.KEY);
            fire(runtime, pipeline, context);
        } catch (SchedulerException e) {
            LOG.error("cannot read the scheduler's context for {} of {}: {}", getClass().getSimpleName(), pipeline, e.getMessage(), e);
        } finally {
            MDC.remove("pipeline");
        }
    }

    /** Runs one fire of {@code pipeline}. */
    abstract void fire(SchedulerRuntime runtime, String pipeline, JobExecutionContext context) throws SchedulerException;
}
