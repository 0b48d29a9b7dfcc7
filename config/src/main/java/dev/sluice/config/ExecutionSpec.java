package dev.sluice.config;

import java.time.Duration;
import java.util.Map;

/**
 * How a pipeline's steps are run ({@code execution} in the spec): a timeout and a retry policy for
 * every step, overridden per step ({@code execution.steps.<step>}), and how often a running job
 * looks for a cancel request ({@code sluice cancel}) or an expired timeout. Immutable.
 *
 * @param stepTimeout the longest a step may run (its job is then stopped: a restart resumes it)
 * @param retry the retry policy of every step
 * @param controlPoll how often a running job checks for cancel requests and timeouts
 * @param stepTimeouts per step name ({@code silver.flights}, {@code gate.silver.flights}): its own timeout
 * @param stepRetries per step name: its own retry policy
 */
public record ExecutionSpec(Duration stepTimeout, RetrySpec retry, Duration controlPoll, Map<String, Duration> stepTimeouts,
        Map<String, RetrySpec> stepRetries) {

    /** The defaults: steps time out after 2 h, 3 tries, checked every second. */
    public static final ExecutionSpec DEFAULT = new ExecutionSpec(Duration.ofHours(2), RetrySpec.DEFAULT, Duration.ofSeconds(1),
            Map.of(), Map.of());

    public ExecutionSpec {
        stepTimeouts = Map.copyOf(stepTimeouts);
        stepRetries = Map.copyOf(stepRetries);
    }

    /** The timeout of step {@code step}. */
    public Duration timeout(String step) {
        return stepTimeouts.getOrDefault(step, stepTimeout);
    }

    /** The retry policy of step {@code step}. */
    public RetrySpec retry(String step) {
        return stepRetries.getOrDefault(step, retry);
    }
}
