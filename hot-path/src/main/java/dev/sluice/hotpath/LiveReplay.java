package dev.sluice.hotpath;

import dev.sluice.config.PipelineSpec;
import dev.sluice.hotpath.internal.kafka.KafkaReplay;
import dev.sluice.warehouse.Warehouse;
import java.time.Instant;
import java.util.Map;

/**
 * Replay: moves a hot path's stored positions back ({@code sluice replay}), so that its consumer
 * group reads again from there. The only way a stored position moves backwards; the sink, the
 * quarantine and the windows are idempotent, so the result is identical to before (plus whatever
 * the topic holds that was not read yet). Refused while members of the group are consuming.
 */
public interface LiveReplay {

    /**
     * Rewinds every partition of the topic to its first record with a timestamp at or after
     * {@code from} (the record timestamp: the event time, for events published by {@code sluice produce});
     * a partition with none is left where it is.
     *
     * @return partition → the position it was moved to
     * @throws dev.sluice.core.SluiceException when the group has active members or the broker cannot be reached
     */
    static Map<Integer, Long> fromTime(PipelineSpec spec, Warehouse warehouse, Instant from, Map<String, Object> extra) {
        return KafkaReplay.fromTime(spec, warehouse, from, extra);
    }

    /**
     * Rewinds the given partitions to the given offsets (clamped to what the topic still holds).
     *
     * @throws dev.sluice.core.SluiceException as {@link #fromTime}, or for a partition the topic does not have
     */
    static Map<Integer, Long> fromOffsets(PipelineSpec spec, Warehouse warehouse, Map<Integer, Long> offsets, Map<String, Object> extra) {
        return KafkaReplay.fromOffsets(spec, warehouse, offsets, extra);
    }
}
