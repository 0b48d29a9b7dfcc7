package dev.sluice.hotpath;

import dev.sluice.config.PipelineSpec;
import dev.sluice.hotpath.internal.kafka.KafkaLiveConsumer;
import dev.sluice.warehouse.Warehouse;
import java.util.Map;

/**
 * One consumer of a pipeline's hot path, run on its own thread ({@link #run()}) until
 * {@link #close()}: records decoded against the event contract, poison to the dead-letter topic and
 * the quarantine, events, windows and consumed offsets written in one warehouse transaction per
 * poll (effectively once; the warehouse, not Kafka, says where the group resumes). Start several
 * for a consumer group of several members.
 */
public interface LiveConsumer extends Runnable, AutoCloseable {

    /** Test and metrics hooks, called on the consumer's thread. */
    interface Hooks {
        /** None. */
        Hooks NONE = batch -> { };

        /**
         * Batch {@code batch} (1, 2, …) is written but not committed (on the writer thread);
         * throwing here rolls it back and ends the consumer.
         */
        void beforeCommit(long batch);

        /**
         * Batch {@code batch} is committed (on the writer thread); {@code recordTimestampsMs} are
         * its records' Kafka timestamps (ms since the epoch, poison included), for latency measures.
         */
        default void committed(long batch, long[] recordTimestampsMs) {
        }
    }

    /** Events written so far by this consumer (redeliveries included). */
    long applied();

    /** How often the consumer paused its partitions because the sink was behind (backpressure). */
    long pauses();

    /** How often partitions were taken from this consumer (rebalances, a lost membership). */
    long revocations();

    /** Stops it: the batch in flight is finished, then it leaves the group. Safe from any thread. */
    @Override
    void close();

    /**
     * A Kafka consumer of {@code spec}'s {@code hot_path}.
     *
     * @param extra Kafka client settings added to (and overriding) the defaults, e.g. security settings
     * @throws dev.sluice.core.SluiceException when the spec has no hot path or its source is unknown
     */
    static LiveConsumer of(PipelineSpec spec, Warehouse warehouse, Map<String, Object> extra, Hooks hooks) {
        return new KafkaLiveConsumer(spec, warehouse, extra, hooks);
    }
}
