package dev.sluice.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.OffsetDateTime;

/**
 * The machine-readable side of the {@code hotsink} measure, for {@code sluice advise} (its
 * per-consumer rate per warehouse kind): one JSON object,
 * <pre>{@code
 * {"measure": "hotsink", "measured_at": "2026-12-03T20:00:00Z", "smoke": false,
 *  "events": 500000, "partitions": 3, "consumers": 2, "cores": 2, "windows": true,
 *  "by_warehouse": {"postgresql": {"events_per_second": 100000.0, "events_per_second_per_consumer": 50000.0},
 *                   "h2":         {"events_per_second":  50000.0, "events_per_second_per_consumer": 25000.0}}}
 * }</pre>
 * {@code events_per_second} is the consumer group's rate (all members, first commit to last);
 * {@code events_per_second_per_consumer} that rate over the members, which shared the machine's
 * {@code cores}: a reader planning for more cores than that scales it with care. Stateless.
 */
final class SluiceRates {

    private static final ObjectMapper JSON = new ObjectMapper();

    private SluiceRates() {
    }

    /** The object above for run {@code r}, measured at {@code at}. */
    static ObjectNode of(HotSinkBench.Result r, OffsetDateTime at) {
        ObjectNode out = JSON.createObjectNode();
        int consumers = r.plan().consumers();
        out.put("measure", "hotsink").put("measured_at", at.toString()).put("smoke", r.plan().smoke()).put("events", r.events())
                .put("partitions", 3).put("consumers", consumers).put("cores", Runtime.getRuntime().availableProcessors()).put("windows", true);
        ObjectNode by = out.putObject("by_warehouse");
        by.putObject("postgresql").put("events_per_second", r.postgres().eventsPerSecond())
                .put("events_per_second_per_consumer", r.postgres().eventsPerSecond() / consumers);
        by.putObject("h2").put("events_per_second", r.h2().eventsPerSecond())
                .put("events_per_second_per_consumer", r.h2().eventsPerSecond() / consumers);
        return out;
    }
}
