package dev.sluice.app.cli;

import dev.sluice.core.BadInputException;
import dev.sluice.core.SluiceException;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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

    @Parameters(index = "0", paramLabel = "start|stop|status")
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
    public Integer call() throws IOException, InterruptedException {
        Path home = dir != null ? dir : ctx.home().resolve("kafka-dev");
        Path pidFile = home.resolve("broker.pid");
        PrintWriter out = command.commandLine().getOut();
        switch (action) {
            case "start" -> {
                if (running(pidFile)) {
                    out.println("kafka-dev is already running (pid " + Files.readString(pidFile).trim() + ") on 127.0.0.1:" + port);
                    return ExitCodes.OK;
                }
                Path lib = library();
                Files.createDirectories(home);
                int controller = port + 1;
                Path log = home.resolve("broker.log");
                Process p = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m",
                        "-cp", lib.resolve("*").toString(), "dev.sluice.kafkadev.KafkaDevBroker", home.toString(), Integer.toString(port),
                        Integer.toString(controller)))
                        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
                Files.writeString(pidFile, Long.toString(p.pid()), StandardCharsets.UTF_8);
                long end = System.nanoTime() + 60_000_000_000L;
                while (!accepts(port)) {
                    if (!p.isAlive() || System.nanoTime() > end) {
                        p.destroy();
                        throw new SluiceException("kafka-dev did not start on 127.0.0.1:" + port + " (see " + log + ")");
                    }
                    Thread.sleep(200); // polling the port until the broker listens
                }
                out.println("kafka-dev running: bootstrap 127.0.0.1:" + port + " (pid " + p.pid() + ", data " + home.resolve("data")
                        + "); export SLUICE_KAFKA_BOOTSTRAP=127.0.0.1:" + port);
                return ExitCodes.OK;
            }
            case "stop" -> {
                if (!running(pidFile)) {
                    out.println("kafka-dev is not running");
                    Files.deleteIfExists(pidFile);
                    return ExitCodes.OK;
                }
                ProcessHandle h = ProcessHandle.of(Long.parseLong(Files.readString(pidFile).trim())).orElseThrow();
                h.destroy();
                try {
                    h.onExit().get(60, java.util.concurrent.TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                    h.destroyForcibly();
                }
                Files.deleteIfExists(pidFile);
                out.println("kafka-dev stopped");
                return ExitCodes.OK;
            }
            case "status" -> {
                out.println(running(pidFile) ? "kafka-dev running (pid " + Files.readString(pidFile).trim() + ")" : "kafka-dev is not running");
                return ExitCodes.OK;
            }
            default -> throw new BadInputException("ACTION", -1, null, "'" + action + "' is not start, stop or status");
        }
    }

    private static boolean running(Path pidFile) throws IOException {
        if (!Files.exists(pidFile)) {
            return false;
        }
        try {
            return ProcessHandle.of(Long.parseLong(Files.readString(pidFile).trim())).map(ProcessHandle::isAlive).orElse(false);
        } catch (NumberFormatException e) {
            return false;
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

    private static boolean accepts(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
