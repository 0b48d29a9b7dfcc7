package dev.sluice.config;

import java.util.Locale;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Where a pipeline's OpenLineage events go: {@code lineage:} in the spec.
 * <pre>
 * lineage:
 *   transport: ${SLUICE_LINEAGE_TRANSPORT:-file}   # file | console | http | kafka | none
 *   file: ${SLUICE_HOME}/lineage/events.ndjson      # file: one event per line (NDJSON)
 *   url: ${SLUICE_LINEAGE_URL:-}                    # http: base URL; events go to POST {url}/api/v1/lineage
 *   api_key: ${SLUICE_LINEAGE_API_KEY:-}            # http: sent as Authorization: Bearer …, never logged
 *   namespace: ${SLUICE_LINEAGE_NAMESPACE:-sluice}  # the jobs' namespace
 *   kafka_bootstrap: ${SLUICE_KAFKA_BOOTSTRAP:-localhost:9092}   # kafka: bootstrap.servers
 *   topic: ${SLUICE_LINEAGE_TOPIC:-openlineage}      # kafka: the topic (key: the job's namespace/name)
 *   queue: 10000                                    # events held for the sender before dropping (counted, logged)
 * </pre>
 * Every key is optional; the defaults are those above.
 *
 * @param transport where events go
 * @param file for FILE, the NDJSON file
 * @param url for HTTP, the endpoint's base URL
 * @param apiKey for HTTP, the bearer token, or empty; {@link #toString()} hides it
 * @param namespace the jobs' OpenLineage namespace
 * @param queue events the asynchronous sender holds before it drops new ones (≥ 1)
 * @param kafkaBootstrap for KAFKA, {@code bootstrap.servers}
 * @param topic for KAFKA, the topic
 */
public record LineageSpec(Transport transport, String file, @Nullable String url, String apiKey, String namespace, int queue,
        String kafkaBootstrap, String topic) {

    /** A spec without the Kafka settings (their defaults). */
    public LineageSpec(Transport transport, String file, @Nullable String url, String apiKey, String namespace, int queue) {
        this(transport, file, url, apiKey, namespace, queue, "localhost:9092", "openlineage");
    }

    /** Where events go. */
    public enum Transport {
        FILE, CONSOLE, HTTP, KAFKA, NONE;

        public static Optional<Transport> parse(String text) {
            for (Transport t : values()) {
                if (t.name().toLowerCase(Locale.ROOT).equals(text)) {
                    return Optional.of(t);
                }
            }
            return Optional.empty();
        }
    }

    @Override
    public String toString() {
        return "LineageSpec[" + transport + ", file=" + file + ", url=" + url + ", apiKey=" + (apiKey.isEmpty() ? "" : "****")
                + ", namespace=" + namespace + ", queue=" + queue + ", kafka=" + kafkaBootstrap + "/" + topic + "]";
    }
}
