package dev.sluice.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.testkit.TestHome;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Starts {@code sluice <args>} in a process that pauses at a fault point ({@code SLUICE_FAULT_PAUSE})
 * and kills it there (SIGKILL), or stops it there (SIGTERM) and lets it end.
 */
public final class FaultPointKill {

    private FaultPointKill() {
    }

    /** Starts {@code sluice <args>} set to pause at {@code point} (none when null), its stdout and stderr merged. */
    private static Process start(String point, Map<String, String> env, String... args) throws java.io.IOException {
        List<String> command = new ArrayList<>(List.of("bash", TestHome.projectRoot().resolve("sluice").toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().putAll(env);
        if (point != null) {
            pb.environment().put("SLUICE_FAULT_PAUSE", point);
        }
        return pb.start();
    }

    static void killAt(String point, Map<String, String> env, String... args) throws Exception {
        Process p = start(point, env, args);
        boolean paused = false;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                if (line.endsWith("SLUICE-FAULT-PAUSE " + point)) {
                    paused = true;
                    p.destroyForcibly();
                    break;
                }
            }
        }
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(paused).as("the process reached %s", point).isTrue();
    }

    /**
     * What a process set to pause at a point did: killed there (SIGKILL), or ended by itself without
     * reaching it (its exit code); the last lines it printed either way.
     */
    public record Reached(boolean killed, int exitCode, String tail) {
    }

    /**
     * Starts {@code sluice <args>} set to pause at {@code point} and kills it (SIGKILL) when it gets
     * there; a process that ends first is let end. Fails after {@code timeoutMinutes} with neither.
     */
    static Reached killAtOrEnd(String point, Map<String, String> env, long timeoutMinutes, String... args) throws Exception {
        Process p = start(point, env, args);
        java.util.ArrayDeque<String> tail = new java.util.ArrayDeque<>();
        java.util.concurrent.CompletableFuture<Boolean> paused = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    synchronized (tail) {
                        tail.addLast(line);
                        if (tail.size() > 40) {
                            tail.removeFirst();
                        }
                    }
                    if (point != null && line.endsWith("SLUICE-FAULT-PAUSE " + point)) {
                        p.destroyForcibly();
                        return true;
                    }
                }
                return false;
            } catch (java.io.IOException e) {
                return false;
            }
        });
        boolean killed;
        try {
            killed = paused.get(timeoutMinutes, TimeUnit.MINUTES);
        } catch (java.util.concurrent.TimeoutException e) {
            p.destroyForcibly();
            throw new AssertionError("sluice " + String.join(" ", args) + " neither reached " + point + " nor ended in "
                    + timeoutMinutes + " min; its last lines:\n" + String.join("\n", tail));
        }
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the process ended").isTrue();
        synchronized (tail) {
            return new Reached(killed, p.exitValue(), String.join("\n", tail));
        }
    }

    /**
     * Runs {@code sluice <args>} to its end (no fault point); its exit code and last lines. Fails
     * after {@code timeoutMinutes}.
     */
    static Reached run(Map<String, String> env, long timeoutMinutes, String... args) throws Exception {
        return killAtOrEnd(null, env, timeoutMinutes, args);
    }

    /** What a process stopped with SIGTERM did: its exit code and everything it printed. */
    public record Stopped(int exitCode, String output) {
    }

    /** Like {@link #killAt}, but sends SIGTERM at the point and waits for the process to end by itself. */
    public static Stopped stopAt(String point, Map<String, String> env, String... args) throws Exception {
        Process p = start(point, env, args);
        boolean paused = false;
        StringBuilder out = new StringBuilder();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                out.append(line).append('\n');
                if (!paused && line.endsWith("SLUICE-FAULT-PAUSE " + point)) {
                    paused = true;
                    p.toHandle().destroy(); // SIGTERM, leaving our end of its output open
                }
            }
        }
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(paused).as("the process reached %s", point).isTrue();
        return new Stopped(p.exitValue(), out.toString());
    }
}
