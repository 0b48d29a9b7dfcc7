/** The Kafka adapter of the hot path: the only package importing the Kafka clients. */
@NullMarked
package dev.sluice.hotpath.internal.kafka;

import org.jspecify.annotations.NullMarked;
