/**
 * The Kafka hot path: consumer group, event-time windows, dead-letter topic, replay and
 * reconciliation with batch Gold. Arrives with the hot-path issue; Kafka clients will be imported
 * only in {@code dev.sluice.hotpath.internal.kafka}.
 */
package dev.sluice.hotpath;
