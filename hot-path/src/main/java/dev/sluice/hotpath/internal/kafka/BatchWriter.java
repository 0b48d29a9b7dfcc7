package dev.sluice.hotpath.internal.kafka;

import dev.sluice.core.SluiceException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;
import org.slf4j.MDC;

/**
 * The writer thread of one {@link KafkaLiveConsumer}: the batches the consumer hands over are written
 * one after the other, in the order handed, on one daemon thread. After a batch fails no later batch
 * is written (its offsets would skip the failed batch's records); the consumer rethrows the failure
 * ({@link #throwIfFailed}). A written batch leaves the offsets to commit to Kafka ({@link #written}),
 * which the consumer's thread takes ({@link #takeWritten}): {@code KafkaConsumer} is single-threaded.
 * {@link #submit}, {@link #inFlight}, {@link #awaitOldest}, {@link #drain}, {@link #takeWritten}, {@link #throwIfFailed}
 * and {@link #shutdown} belong to the consumer's thread; {@link #written} to the writer's.
 */
final class BatchWriter {

    private final ExecutorService executor;
    /** Written batches whose offsets the consumer thread commits to Kafka (KafkaConsumer is single-threaded). */
    private final ConcurrentLinkedQueue<Map<TopicPartition, OffsetAndMetadata>> written = new ConcurrentLinkedQueue<>();
    private final ArrayDeque<Future<?>> inFlight = new ArrayDeque<>();
    private volatile @Nullable Throwable failure;

    /** @param threadName the writer thread's name */
    BatchWriter(String threadName) {
        this.executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
    }

    /** Batches handed over and not yet known to be finished. */
    int inFlight() {
        return inFlight.size();
    }

    /**
     * Hands {@code write} to the writer thread, which runs it with the caller's MDC unless an earlier
     * batch failed; whatever it throws is the writer's failure.
     */
    void submit(Runnable write) {
        Map<String, String> mdc = MDC.getCopyOfContextMap();
        inFlight.add(executor.submit(() -> {
            if (failure != null) {
                return; // a batch after a failed one is not written: its offsets would skip the failed batch's records
            }
            MDC.setContextMap(mdc);
            try {
                write.run();
            } catch (Throwable t) {
                failure = t;
            } finally {
                MDC.clear();
            }
        }));
    }

    /** On the writer thread, in a batch's {@code write}: the batch is written; {@code commit} are its offsets for Kafka. */
    void written(Map<TopicPartition, OffsetAndMetadata> commit) {
        written.add(commit);
    }

    /**
     * Waits until the oldest batch in flight is finished, at most {@code timeout}; returns at once
     * when none is in flight, and early when interrupted (the flag kept).
     */
    void awaitOldest(Duration timeout) {
        Future<?> oldest = inFlight.peek();
        if (oldest == null) {
            return;
        }
        try {
            oldest.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            // still writing: the caller polls to keep its group membership and asks again
        } catch (ExecutionException e) {
            failure = e.getCause();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits until the writer has written (or refused) every batch handed to it; returns early when interrupted. */
    void drain() {
        while (!inFlight.isEmpty()) {
            try {
                inFlight.peek().get();
            } catch (ExecutionException e) {
                failure = e.getCause();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            inFlight.poll();
        }
    }

    /** Forgets finished batches, and returns the offsets of the batches written since the last call, merged (empty: none). */
    Map<TopicPartition, OffsetAndMetadata> takeWritten() {
        while (!inFlight.isEmpty() && inFlight.peek().isDone()) {
            inFlight.poll();
        }
        Map<TopicPartition, OffsetAndMetadata> merged = new HashMap<>();
        for (Map<TopicPartition, OffsetAndMetadata> c; (c = written.poll()) != null; ) {
            merged.putAll(c);
        }
        return merged;
    }

    /**
     * Rethrows the writer's failure, if any: a RuntimeException or Error as it is, anything else
     * wrapped in a {@link SluiceException}.
     */
    void throwIfFailed() {
        Throwable t = failure;
        if (t instanceof RuntimeException e) {
            throw e;
        }
        if (t instanceof Error e) {
            throw e;
        }
        if (t != null) {
            throw new SluiceException("the hot path's writer failed: " + t.getMessage(), t);
        }
    }

    /** Stops the writer thread once the batches handed over are done; takes no more. */
    void shutdown() {
        executor.shutdown();
    }
}
