package dev.sluice.quality;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The Deequ gate's session started ahead of the first gate ({@link QualityGate#startInBackground}):
 * one start per JVM, whichever gate asks, and it completes without an error.
 */
class SessionStartIT {

    @Test
    void theSessionStartsOnceAndCompletes() throws Exception {
        CompletableFuture<Void> first = QualityGate.deequ("local[2]").startInBackground();
        CompletableFuture<Void> second = QualityGate.deequ("local[2]").startInBackground();
        assertThat(second).as("one start per JVM").isSameAs(first);
        // a bound, not a pace: Spark starts in seconds here
        first.get(5, TimeUnit.MINUTES);
        assertThat(first).isCompleted().isNotCompletedExceptionally();
    }
}
