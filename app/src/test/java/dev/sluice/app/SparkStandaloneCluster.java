package dev.sluice.app;

import dev.sluice.spark.ExecutorJars;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Spark standalone cluster on loopback for tests: one master and {@code n} workers, each a child
 * JVM of Spark's own classes ({@code org.apache.spark.deploy.master.Master}, {@code …worker.Worker})
 * on random free ports, each worker with 1 core and bounded memory.
 *
 * <p>A worker launches executors through Spark's launcher, which expects a Spark installation:
 * {@code SPARK_HOME/jars} is laid out here from this JVM's class path (links, no copies) without
 * the jars Sluice ships to executors itself ({@link ExecutorJars#MARKERS}: Sluice's, Iceberg's,
 * Deequ's, the JDBC drivers), so an executor that runs a Sluice job proves that {@code spark.jars}
 * carried them. {@code SPARK_HOME/conf} holds a logback configuration (executors put that folder on
 * their class path) that keeps the cluster's logs at INFO in files under the cluster's folder.
 *
 * <p>{@link #close()} kills the executors, the workers and the master; a JVM shutdown hook does the
 * same when a test ends without closing it, so nothing is left running. Not thread-safe.
 */
final class SparkStandaloneCluster implements AutoCloseable {

    private static final Pattern ALIVE = Pattern.compile("\"aliveworkers\"\\s*:\\s*(\\d+)");
    private static final List<String> OPENS = List.of("java.lang", "java.lang.invoke", "java.lang.reflect", "java.io", "java.net",
            "java.nio", "java.util", "java.util.concurrent", "java.util.concurrent.atomic", "jdk.internal.ref", "sun.nio.ch", "sun.nio.cs",
            "sun.security.action", "sun.util.calendar");

    private final Path home;
    private final int masterPort;
    private final int masterUiPort;
    private int workers;
    private final List<Process> processes = new ArrayList<>();
    private final Thread hook = new Thread(this::stop, "spark-cluster-stop");

    private SparkStandaloneCluster(Path home) throws IOException {
        this.home = home;
        this.masterPort = freePort();
        this.masterUiPort = freePort();
    }

    /**
     * Lays out {@code dir} as a Spark home and starts a master and {@code workers} workers of one core
     * and {@code workerMemory} (e.g. {@code 1g}) each; returns when the master lists them all alive.
     *
     * @throws IllegalStateException when a process ends early or the workers are not alive within 2 minutes
     */
    static SparkStandaloneCluster start(Path dir, int workers, String workerMemory) throws IOException, InterruptedException {
        SparkStandaloneCluster c = new SparkStandaloneCluster(dir.toAbsolutePath());
        Runtime.getRuntime().addShutdownHook(c.hook);
        try {
            c.layOut();
            c.processes.add(c.launch("master", "org.apache.spark.deploy.master.Master",
                    "--host", "127.0.0.1", "--port", Integer.toString(c.masterPort), "--webui-port", Integer.toString(c.masterUiPort)));
            for (int i = 0; i < workers; i++) {
                int ui = freePort();
                c.workers++;
                Path work = Files.createDirectories(c.home.resolve("work-" + i));
                c.processes.add(c.launch("worker-" + i, "org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1",
                        "--webui-port", Integer.toString(ui), "--cores", "1", "--memory", workerMemory, "--work-dir", work.toString(),
                        c.masterUrl()));
            }
            c.awaitWorkers(workers);
            return c;
        } catch (IOException | InterruptedException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /** The master's URL, {@code spark://127.0.0.1:PORT}. */
    String masterUrl() {
        return "spark://127.0.0.1:" + masterPort;
    }

    /**
     * The worker that launched executor {@code executorId} of application {@code appId}, from the
     * folders workers make for their executors ({@code <work dir>/<app id>/<executor id>}); -1 when none did.
     */
    int workerOf(String appId, String executorId) {
        for (int i = 0; i < workers(); i++) {
            if (Files.isDirectory(home.resolve("work-" + i).resolve(appId).resolve(executorId))) {
                return i;
            }
        }
        return -1;
    }

    /** The number of workers. */
    int workers() {
        return workers;
    }

    /**
     * Kills (SIGKILL) the executor JVMs worker {@code i} runs now; returns how many it killed.
     */
    int killExecutorsOf(int i) {
        Process worker = processes.get(1 + i);
        List<ProcessHandle> executors = worker.descendants().toList();
        executors.forEach(ProcessHandle::destroyForcibly);
        return executors.size();
    }

    /** The last lines of a process's log ({@code master}, {@code worker-0}…). */
    String logTail(String name) {
        try {
            List<String> lines = Files.readAllLines(home.resolve(name + ".log"), StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    private void layOut() throws IOException {
        Path jars = Files.createDirectories(home.resolve("jars"));
        Path conf = Files.createDirectories(home.resolve("conf"));
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        int n = 0;
        for (String entry : classPath.split(File.pathSeparator)) {
            Path jar = Path.of(entry);
            if (entry.endsWith(".jar") && Files.isRegularFile(jar) && !shippedBySluice(jar)) {
                Files.createSymbolicLink(jars.resolve((n++) + "-" + jar.getFileName()), jar.toAbsolutePath());
            }
        }
        Files.writeString(conf.resolve("logback.xml"), """
                <configuration>
                  <appender name="out" class="ch.qos.logback.core.ConsoleAppender">
                    <encoder><pattern>%d{HH:mm:ss.SSS} %-5level %logger{30} - %msg%n</pattern></encoder>
                  </appender>
                  <logger name="org.sparkproject" level="WARN"/>
                  <logger name="org.apache.hadoop" level="WARN"/>
                  <root level="INFO"><appender-ref ref="out"/></root>
                </configuration>
                """, StandardCharsets.UTF_8);
    }

    /** Whether a jar holds something Sluice ships to executors itself. */
    private static boolean shippedBySluice(Path jar) throws IOException {
        try (JarFile f = new JarFile(jar.toFile())) {
            return Collections.list(f.entries()).stream().anyMatch(e -> ExecutorJars.MARKERS.stream().anyMatch(m -> e.getName().startsWith(m)));
        }
    }

    private Process launch(String name, String mainClass, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        OPENS.forEach(p -> command.add("--add-opens=java.base/" + p + "=ALL-UNNAMED"));
        command.add("-cp");
        command.add(home.resolve("conf") + File.pathSeparator + home.resolve("jars") + File.separator + "*");
        command.add(mainClass);
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(home.resolve(name + ".log").toFile());
        pb.environment().put("SPARK_HOME", home.toString());
        pb.environment().put("SPARK_SCALA_VERSION", "2.12");
        pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        pb.environment().remove("SPARK_CONF_DIR");
        return pb.start();
    }

    /** Polls the master's JSON status (its web UI's {@code /json/}) until {@code n} workers are alive. */
    private void awaitWorkers(int n) throws InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest status = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + masterUiPort + "/json/")).timeout(Duration.ofSeconds(5)).build();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        int alive = 0;
        while (System.nanoTime() < deadline) {
            for (int i = 0; i < processes.size(); i++) {
                if (!processes.get(i).isAlive()) {
                    String name = i == 0 ? "master" : "worker-" + (i - 1);
                    throw new IllegalStateException("the Spark " + name + " ended (" + processes.get(i).exitValue() + "):\n" + logTail(name));
                }
            }
            try {
                Matcher m = ALIVE.matcher(http.send(status, HttpResponse.BodyHandlers.ofString()).body());
                alive = m.find() ? Integer.parseInt(m.group(1)) : 0;
                if (alive == n) {
                    return;
                }
            } catch (IOException e) {
                // the master's UI is not listening yet
            }
            Thread.sleep(200); // polling a condition with a deadline, not waiting for time to pass
        }
        throw new IllegalStateException(alive + " of " + n + " Spark workers alive after 2 minutes; the master's log:\n" + logTail("master"));
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private void stop() {
        for (int i = processes.size() - 1; i >= 0; i--) {
            Process p = processes.get(i);
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        for (Process p : processes) {
            try {
                p.waitFor(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is shutting down: the hook runs (or ran) stop() itself
        }
    }
}
