/**
 * The hot path: a Kafka consumer group per pipeline, events checked against the contract, poison
 * to a dead-letter topic and the quarantine, events and offsets in one warehouse transaction
 * (effectively once). Kafka itself only in {@code internal.kafka}.
 */
@NullMarked
package dev.sluice.hotpath;

import org.jspecify.annotations.NullMarked;
