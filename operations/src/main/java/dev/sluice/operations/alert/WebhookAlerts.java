package dev.sluice.operations.alert;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Alerts POSTed as JSON to a webhook ({@code alerts.webhook}): {@code {"kind", "pipeline",
 * "dataset", "partition", "message", "at"}}. A failed delivery (an error status, a timeout) is
 * logged without the URL, which may carry a token. Thread-safe.
 */
final class WebhookAlerts implements AlertSink {

    private static final Logger LOG = LoggerFactory.getLogger(WebhookAlerts.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI url;
    private final Duration timeout;
    private final HttpClient http;

    WebhookAlerts(String url, Duration timeout) {
        this.url = URI.create(url);
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    @Override
    public void send(Alert a) {
        ObjectNode body = JSON.createObjectNode().put("kind", a.kind().name()).put("pipeline", a.pipeline())
                .put("dataset", a.dataset()).put("partition", a.partition()).put("message", a.message()).put("at", a.at().toString());
        try {
            HttpResponse<Void> r = http.send(HttpRequest.newBuilder(url).timeout(timeout).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(), HttpResponse.BodyHandlers.discarding());
            if (r.statusCode() >= 300) {
                LOG.warn("the alert webhook answered {} to a {} alert of {}", r.statusCode(), a.kind(), a.pipeline());
            }
        } catch (IOException e) {
            LOG.warn("the alert webhook cannot be reached for a {} alert of {}: {}", a.kind(), a.pipeline(), e.getClass().getSimpleName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
