package dev.sluice.app.schedule;

import dev.sluice.operations.alert.AlertSink;
import dev.sluice.operations.freshness.FreshnessMonitor;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.SluiceException;
import java.time.Clock;
import org.quartz.DisallowConcurrentExecution;
import org.quartz.JobExecutionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The freshness check of one pipeline's datasets, run by the scheduler at least twice per the
 * shortest update interval it declares; one alert per change of state ({@link FreshnessMonitor}).
 * One check at a time across the cluster.
 */
@DisallowConcurrentExecution
public final class FreshnessCheckJob extends PipelineJob {

    private static final Logger LOG = LoggerFactory.getLogger(FreshnessCheckJob.class);

    @Override
    void fire(SchedulerRuntime runtime, String pipeline, JobExecutionContext context) {
        try {
            PipelineSpec spec = runtime.spec(pipeline);
            new FreshnessMonitor(runtime.runner().warehouse().dsl(), Clock.systemUTC()).check(spec, AlertSink.of(spec));
        } catch (SluiceException e) {
            LOG.error("freshness check of {} failed: {}", pipeline, e.getMessage());
        }
    }
}
