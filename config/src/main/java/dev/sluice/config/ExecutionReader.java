package dev.sluice.config;

import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads {@code execution:}, how a pipeline's steps are run ({@link ExecutionSpec}); every key is
 * optional and defaults to {@link ExecutionSpec#DEFAULT}:
 * <pre>
 * execution:
 *   step_timeout: PT2H             # default PT2H: the longest a step may run (a positive ISO-8601 duration)
 *   retry:                         # retries of retriable errors ({@link RetrySpec})
 *     max_attempts: 3              # default 3: tries in all, at least 1
 *     backoff: PT5S                # default PT5S: the wait before the first retry
 *     multiplier: 2.0              # default 2.0: each further wait is the one before × it (&gt;= 1)
 *     max_backoff: PT5M            # default PT5M: no wait is longer
 *   control_poll: PT1S             # default PT1S: how often a running job looks for cancel requests and timeouts
 *   steps:                         # per step of this pipeline (silver.flights, gate.silver.flights):
 *     silver.flights:
 *       timeout: PT30M             #   default step_timeout
 *       retry: {max_attempts: 1}   #   what it leaves out comes from execution.retry
 * </pre>
 * Problems are added to the cursor's list with their key paths; nothing is thrown for bad content;
 * a bad value leaves its default. Stateless.
 */
final class ExecutionReader {

    private ExecutionReader() {
    }

    /**
     * The execution settings; {@link ExecutionSpec#DEFAULT} without {@code execution}.
     *
     * @param c the spec's root
     * @param tables the valid layer tables, whose steps {@code steps} may name
     */
    static ExecutionSpec read(YamlCursor c, List<TableSpec> tables) {
        Optional<YamlCursor> e = c.map("execution", false);
        if (e.isEmpty()) {
            return ExecutionSpec.DEFAULT;
        }
        YamlCursor x = e.get();
        x.allowOnly(Set.of("step_timeout", "retry", "control_poll", "steps"));
        ExecutionSpec d = ExecutionSpec.DEFAULT;
        Duration timeout = x.duration("step_timeout", d.stepTimeout());
        RetrySpec retry = x.map("retry", false).map(r -> retry(r, d.retry())).orElse(d.retry());
        Duration poll = x.duration("control_poll", d.controlPoll());
        Set<String> steps = new HashSet<>();
        for (TableSpec t : tables) {
            steps.add(t.stepName());
            if (t.hasGate()) {
                steps.add("gate." + t.stepName());
            }
        }
        Map<String, Duration> timeouts = new LinkedHashMap<>();
        Map<String, RetrySpec> retries = new LinkedHashMap<>();
        x.map("steps", false).ifPresent(m -> m.keys().forEach(step -> m.map(step, true).ifPresent(s -> {
            if (!steps.contains(step)) {
                m.problem(step, step, "not a step of this pipeline; its steps: " + String.join(", ", new TreeSet<>(steps)));
                return;
            }
            s.allowOnly(Set.of("timeout", "retry"));
            if (s.has("timeout")) {
                timeouts.put(step, s.duration("timeout", timeout));
            }
            s.map("retry", false).ifPresent(r -> retries.put(step, retry(r, retry)));
        })));
        return new ExecutionSpec(timeout, retry, poll, timeouts, retries);
    }

    /** A {@code retry:} map; what it leaves out comes from {@code base}. */
    private static RetrySpec retry(YamlCursor r, RetrySpec base) {
        r.allowOnly(Set.of("max_attempts", "backoff", "multiplier", "max_backoff"));
        int attempts = r.integer("max_attempts", base.maxAttempts(), 1).orElse(base.maxAttempts());
        double multiplier = r.text("multiplier", false).map(m -> {
            if (!CheckReader.isNumber(m) || Double.parseDouble(m) < 1) {
                r.problem("multiplier", m, "a number ≥ 1 (each wait is the one before × it)");
                return base.multiplier();
            }
            return Double.parseDouble(m);
        }).orElse(base.multiplier());
        return new RetrySpec(attempts, r.duration("backoff", base.backoff()), multiplier,
                r.duration("max_backoff", base.maxBackoff()));
    }
}
