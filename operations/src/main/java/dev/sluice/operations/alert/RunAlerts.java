package dev.sluice.operations.alert;

import dev.sluice.batch.job.RunListener;
import dev.sluice.control.run.RunStatus;
import dev.sluice.batch.job.RunSummary;
import dev.sluice.batch.job.StepSummary;
import dev.sluice.control.run.StopCause;
import dev.sluice.config.PipelineSpec;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Alerts on a run that did not complete: GATE_FAILED (naming the dataset) when the step that failed
 * is a gate's (an ERROR check blocked it), else RUN_FAILED; a run stopped on request (cancel,
 * shutdown) is not alerted, one stopped by a step timeout is. Sent to {@link AlertSink#of the spec's
 * sinks}. Registered as a {@link RunListener} (ServiceLoader), so every runner of a JVM with this
 * module alerts. Stateless and thread-safe.
 */
public final class RunAlerts implements RunListener {

    @Override
    public void finished(PipelineSpec spec, RunSummary summary) {
        if (summary.completed() || summary.status() == RunStatus.STOPPED && summary.stopCause() != StopCause.TIMEOUT) {
            return;
        }
        Optional<String> gate = summary.failedStep().flatMap(StepSummary::judgedDataset);
        String failure = Objects.requireNonNullElse(summary.failure(), "the run failed");
        AlertSink.of(spec).send(new Alert(gate.isPresent() ? Alert.Kind.GATE_FAILED : Alert.Kind.RUN_FAILED, spec.name(),
                gate.orElse(null), summary.partition().key(),
                "attempt " + summary.attempt() + " (run " + summary.runId() + "): " + failure, Instant.now()));
    }
}
