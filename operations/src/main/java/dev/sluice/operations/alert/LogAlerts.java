package dev.sluice.operations.alert;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Alerts in the log: WARN for late data, ERROR for breaches and failures, INFO for recoveries. Thread-safe. */
final class LogAlerts implements AlertSink {

    private static final Logger LOG = LoggerFactory.getLogger("dev.sluice.alert");

    @Override
    public void send(Alert a) {
        String line = "ALERT " + a.kind() + " " + a.pipeline() + (a.dataset() == null ? "" : " " + a.dataset())
                + (a.partition() == null ? "" : " " + a.partition()) + ": " + a.message();
        switch (a.kind()) {
            case FRESHNESS_OK -> LOG.info("{}", line);
            case FRESHNESS_WARN -> LOG.warn("{}", line);
            default -> LOG.error("{}", line);
        }
    }
}
