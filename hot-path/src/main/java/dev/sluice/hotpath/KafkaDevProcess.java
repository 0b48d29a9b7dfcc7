package dev.sluice.hotpath;

import dev.sluice.core.SluiceException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * The local single-node KRaft broker of {@code sluice kafka-dev}, as its own JVM
 * ({@code dev.sluice.kafkadev.KafkaDevBroker} from the kafka-dev module's libraries: Kafka's Scala
 * 2.13 never shares a classpath with Spark's 2.12), loopback only. Data, log ({@code broker.log}),
 * pid file ({@code broker.pid}) and the KRaft controller's port ({@code controller.port}: a free
 * port picked at the first start, kept because the formatted quorum names it) under one directory,
 * so a restart on the same directory keeps the topics. Used by the CLI, the tests and the benchmarks. Stateless;
 * the pid file is the state.
 */
public final class KafkaDevProcess {

    private KafkaDevProcess() {
    }

    /**
     * Starts the broker unless it runs already, and waits until it accepts connections.
     *
     * @param lib the directory of the broker's jars ({@code kafka-dev/target/lib})
     * @param dir data, log and pid file
     * @return the broker's pid
     * @throws SluiceException when the controller's recorded port is taken, or it does not listen
     *     within 60 s (naming its log)
     * @throws IOException when the directory cannot be written
     */
    public static long start(Path lib, Path dir, int port) throws IOException {
        Optional<Long> running = pid(dir);
        if (running.isPresent()) {
            return running.get();
        }
        Files.createDirectories(dir);
        int controller = controllerPort(dir, port);
        Path log = dir.resolve("broker.log");
        Process p = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m",
                "-cp", lib.resolve("*").toString(), "dev.sluice.kafkadev.KafkaDevBroker", dir.toString(), Integer.toString(port),
                Integer.toString(controller)))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        Files.writeString(dir.resolve("broker.pid"), Long.toString(p.pid()), StandardCharsets.UTF_8);
        long end = System.nanoTime() + 60_000_000_000L;
        while (!accepts(port)) {
            if (!p.isAlive() || System.nanoTime() > end) {
                p.destroy();
                throw new SluiceException("kafka-dev did not start on 127.0.0.1:" + port + " (see " + log + ")");
            }
            LockSupport.parkNanos(200_000_000L); // polling the port until the broker listens
        }
        return p.pid();
    }

    /**
     * The controller's port of the broker in {@code dir}: the one recorded in {@code controller.port};
     * for a directory formatted before that file existed, {@code port + 1} (the earlier rule); else a
     * free loopback port, recorded (written whole, then moved in place) before the broker formats its
     * quorum with it. A recorded port must be free now.
     */
    private static int controllerPort(Path dir, int port) throws IOException {
        Path file = dir.resolve("controller.port");
        int controller;
        if (Files.exists(file)) {
            String text = Files.readString(file, StandardCharsets.UTF_8).trim();
            try {
                controller = Integer.parseInt(text);
            } catch (NumberFormatException e) {
                throw new SluiceException("kafka-dev cannot start: " + file + " holds '" + text + "', not a port");
            }
        } else {
            if (Files.exists(dir.resolve("data/meta.properties"))) {
                controller = port + 1;
            } else {
                try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
                    controller = s.getLocalPort();
                }
            }
            Path tmp = dir.resolve("controller.port.tmp");
            Files.writeString(tmp, Integer.toString(controller), StandardCharsets.UTF_8);
            Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        }
        try (java.net.ServerSocket s = new java.net.ServerSocket(controller, 1, java.net.InetAddress.getLoopbackAddress())) {
            return controller; // free: closed again at once (SO_REUSEADDR, the JDK's default here, lets the broker bind it right after)
        } catch (IOException e) {
            throw new SluiceException("kafka-dev cannot start: 127.0.0.1:" + controller + ", its KRaft controller's port (recorded in "
                    + file + "), is in use (" + e.getMessage() + ")");
        }
    }

    /**
     * Stops the broker (SIGTERM, then SIGKILL after 60 s) and removes the pid file.
     *
     * @return false when it was not running
     */
    public static boolean stop(Path dir) throws IOException {
        Optional<Long> pid = pid(dir);
        if (pid.isEmpty()) {
            Files.deleteIfExists(dir.resolve("broker.pid"));
            return false;
        }
        ProcessHandle.of(pid.get()).ifPresent(h -> {
            h.destroy();
            try {
                h.onExit().get(60, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                h.destroyForcibly();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Files.deleteIfExists(dir.resolve("broker.pid"));
        return true;
    }

    /** The pid of the broker running from {@code dir}, if one does. */
    public static Optional<Long> pid(Path dir) throws IOException {
        Path pidFile = dir.resolve("broker.pid");
        if (!Files.exists(pidFile)) {
            return Optional.empty();
        }
        try {
            long pid = Long.parseLong(Files.readString(pidFile).trim());
            return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).map(h -> pid);
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
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
