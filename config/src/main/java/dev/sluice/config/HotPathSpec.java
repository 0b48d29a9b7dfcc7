package dev.sluice.config;

import dev.sluice.core.DatasetRef;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A pipeline's hot path ({@code hot_path:} in the spec): the Kafka topic it consumes, the event
 * contract (a source's: the same validity rules as Silver), and where every valid event lands.
 * Immutable.
 *
 * @param topic the topic of the events
 * @param deadLetterTopic where events that cannot be decoded or break the contract go ({@code <topic>.dlq} by default)
 * @param bootstrapServers the Kafka cluster ({@code bootstrap.servers}); never logged with credentials
 * @param groupId the consumer group ({@code sluice-<pipeline>} by default)
 * @param source the source whose contract the events follow
 * @param eventTime the contract column holding each event's event time (a timestamp, read as UTC)
 * @param sink the table keeping every valid event once, keyed by its event id (the record key)
 * @param maxPollRecords records per poll at most (bounded work per poll: {@code max.poll.interval.ms} is never reached)
 * @param allowedLateness how far behind the watermark (the newest event time seen) an event may
 *     arrive and still update its windows; a later one is kept in the sink but quarantined for the
 *     windows ({@code too_late}), never silently dropped
 * @param windows the live aggregates, in order
 * @param rulesFrom the Silver table whose quarantine rules every event must also pass
 *     ({@code rules_from}), or null: the rules are SQL over the source's columns, so an event is
 *     judged exactly as Silver judges the same row, reference lookups included
 * @param rules those rules, first match wins (empty without {@code rules_from})
 * @param reconcile how the live windows are reconciled with the batch mart, or null
 */
public record HotPathSpec(String topic, String deadLetterTopic, String bootstrapServers, String groupId, String source,
        String eventTime, DatasetRef sink, int maxPollRecords, Duration allowedLateness, List<WindowSpec> windows,
        @Nullable DatasetRef rulesFrom, List<QuarantineRule> rules,
        @Nullable ReconcileSpec reconcile) {

    public HotPathSpec {
        windows = List.copyOf(windows);
        rules = List.copyOf(rules);
    }
}
