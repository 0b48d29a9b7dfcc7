package dev.sluice.operations.alert;

import dev.sluice.config.PipelineSpec;
import java.time.Duration;
import java.util.List;

/**
 * Where alerts go. Sending never throws and never blocks beyond its timeout: an alert that cannot
 * be delivered is logged. Implementations are thread-safe.
 */
@FunctionalInterface
public interface AlertSink {

    /** Delivers {@code alert}. */
    void send(Alert alert);

    /** The log (always), plus the spec's webhook when it has one. */
    static AlertSink of(PipelineSpec spec) {
        AlertSink log = new LogAlerts();
        if (spec.alertWebhook() == null) {
            return log;
        }
        AlertSink hook = new WebhookAlerts(spec.alertWebhook(), Duration.ofSeconds(5));
        return all(List.of(log, hook));
    }

    /** Every one of {@code sinks}, in order. */
    static AlertSink all(List<AlertSink> sinks) {
        return alert -> sinks.forEach(s -> s.send(alert));
    }
}
