package dev.sluice.app.cli;

import dev.sluice.core.BadInputException;
import dev.sluice.hotpath.KafkaDevProcess;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sluice kafka-dev start|stop|status [--port N] [--dir D]}: a local single-node KRaft broker for
 * users who have none (the demo, the hot path on a laptop), as its own JVM from the kafka-dev
 * module's libraries ({@code SLUICE_KAFKA_DEV_LIB}, set by the launcher to {@code kafka-dev/target/lib}):
 * Kafka's Scala 2.13 must never share a classpath with Spark's 2.12. Data and pid file under
 * {@code ${SLUICE_HOME}/kafka-dev}; loopback only. Any real cluster works through
 * {@code bootstrap_servers} instead.
 */
@Command(name = "kafka-dev", mixinStandardHelpOptions = true,
        description = {"A local single-node Kafka broker (KRaft) on loopback, for the hot path on one machine.",
                "start waits until it accepts connections; stop sends SIGTERM and waits; status says whether it runs."})
final class KafkaDevCommand implements Callable<Integer> {

    private final SluiceContext ctx;

    @Parameters(index = "0", paramLabel = "start|stop|status", description = "start the broker, stop it, or say whether it runs and where")
    String action;

    @Option(names = "--port", defaultValue = "${env:SLUICE_KAFKA_DEV_PORT:-9092}", description = "the client port (default ${DEFAULT-VALUE})")
    int port;

    @Option(names = "--dir", description = "data and pid file (default ${SLUICE_HOME}/kafka-dev)")
    Path dir;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec command;

    KafkaDevCommand(SluiceContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws IOException {
        Path home = dir != null ? dir : ctx.home().resolve("kafka-dev");
        PrintWriter out = command.commandLine().getOut();
        switch (action) {
            case "start" -> {
                var running = KafkaDevProcess.pid(home);
                if (running.isPresent()) {
                    out.println("kafka-dev is already running (pid " + running.get() + ") on 127.0.0.1:" + port);
                    return ExitCodes.OK;
                }
                long pid = KafkaDevProcess.start(library(), home, port);
                out.println("kafka-dev running: bootstrap 127.0.0.1:" + port + " (pid " + pid + ", data " + home.resolve("data")
                        + "); export SLUICE_KAFKA_BOOTSTRAP=127.0.0.1:" + port);
                return ExitCodes.OK;
            }
            case "stop" -> {
                out.println(KafkaDevProcess.stop(home) ? "kafka-dev stopped" : "kafka-dev is not running");
                return ExitCodes.OK;
            }
            case "status" -> {
                out.println(KafkaDevProcess.pid(home).map(pid -> "kafka-dev running (pid " + pid + ")").orElse("kafka-dev is not running"));
                return ExitCodes.OK;
            }
            default -> throw new BadInputException("ACTION", -1, null, "'" + action + "' is not start, stop or status");
        }
    }

    private Path library() {
        String env = ctx.env().apply("SLUICE_KAFKA_DEV_LIB");
        Path lib = env == null || env.isBlank() ? Path.of("kafka-dev/target/lib") : Path.of(env);
        if (!Files.isDirectory(lib)) {
            throw new BadInputException("SLUICE_KAFKA_DEV_LIB", -1, null, lib.toAbsolutePath() + " does not hold the broker's libraries:"
                    + " build them with `mvn -pl kafka-dev package` (the sluice launcher points SLUICE_KAFKA_DEV_LIB at kafka-dev/target/lib)");
        }
        return lib;
    }
}
