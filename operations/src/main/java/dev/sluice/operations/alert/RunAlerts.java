package dev.sluice.operations.alert;

import dev.sluice.batch.job.RunListener;
import dev.sluice.batch.job.RunSummary;
import dev.sluice.config.PipelineSpec;
import java.time.Instant;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Alerts on a run that did not complete: GATE_FAILED when an ERROR check blocked a gate, else
 * RUN_FAILED; a run stopped on request (cancel, shutdown) is not alerted, one stopped by a step
 * timeout is. Sent to {@link AlertSink#of the spec's sinks}. Registered as a {@link RunListener}
 * (ServiceLoader), so every runner of a JVM with this module alerts. Stateless and thread-safe.
 */
public final class RunAlerts implements RunListener {

    private static final Pattern GATE = Pattern.compile("^step gate\\.(\\S+) failed");

    @Override
    public void finished(PipelineSpec spec, RunSummary summary) {
        if (summary.completed()) {
            return;
        }
        String failure = Objects.requireNonNullElse(summary.failure(), "the run failed");
        if (summary.status().equals("STOPPED") && !failure.contains("timeout")) {
            return;
        }
        Matcher gate = GATE.matcher(failure);
        boolean atGate = gate.find();
        AlertSink.of(spec).send(new Alert(atGate ? Alert.Kind.GATE_FAILED : Alert.Kind.RUN_FAILED, spec.name(),
                atGate ? gate.group(1) : null, summary.partition().key(),
                "attempt " + summary.attempt() + " (run " + summary.runId() + "): " + failure, Instant.now()));
    }
}
