package dev.sluice.app.cli;

import dev.sluice.batch.job.RunControl;

/**
 * SIGTERM and SIGINT stop the runs of this process gracefully ({@link RunControl#stopAll}): a
 * Bronze step ends its chunk, a Silver/Gold step rolls back its statement, each run is recorded
 * STOPPED and the command ends normally, so that a restart resumes it. Handled by a signal handler,
 * not a shutdown hook: during JVM shutdown H2's own hook would close the warehouse under the run.
 * A second signal while stopping is ignored; SIGKILL remains the hard stop (a restart recovers that too).
 */
final class GracefulStop {

    private GracefulStop() {
    }

    /** Installs the handlers; {@code onSignal} runs too (e.g. to wake a waiting scheduler). */
    static void install(Runnable onSignal) {
        for (String name : new String[] {"TERM", "INT"}) {
            try {
                sun.misc.Signal.handle(new sun.misc.Signal(name), signal -> {
                    RunControl.get().stopAll("the process received SIG" + name + " and is shutting down");
                    onSignal.run();
                });
            } catch (IllegalArgumentException e) {
                // the signal is not available on this platform (or reserved by the JVM): the default applies
            }
        }
    }
}
