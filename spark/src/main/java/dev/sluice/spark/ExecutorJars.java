package dev.sluice.spark;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The jars a Spark cluster's executors need for Sluice's work and a Spark installation lacks, as
 * local files for {@code spark.jars}: Spark's documented way to ship application classes, which the
 * driver then serves to every executor (Spark's "Submitting Applications", "Advanced Dependency
 * Management"). They are the jars holding one of {@link #MARKERS}: Sluice's own classes (the gates'
 * and PII policies' UDFs run on executors), Iceberg's Spark runtime (executors read and write the
 * data files), Deequ (its aggregate functions run on executors) and the H2 and PostgreSQL JDBC
 * drivers (a warehouse engine's gate reads its table over JDBC on the executors).
 *
 * <p>Each class-path root holding a marker becomes one file:
 * <ul>
 *   <li>a plain jar ({@code jar:file:…!/}) is used where it is;</li>
 *   <li>a jar nested in {@code sluice.jar}, a Spring Boot executable jar whose nested jars no other
 *   JVM can load from ({@code jar:nested:…/!BOOT-INF/lib/x.jar!/}, Spring Boot's "Nested JARs"), is
 *   copied out to the cache folder;</li>
 *   <li>a folder of classes ({@code target/classes}, or {@code BOOT-INF/classes} in
 *   {@code sluice.jar}) is packed into a jar in the cache folder.</li>
 * </ul>
 * Processes may share the cache folder: each jar appears under its name by an atomic move. Safe
 * to call from one thread at a time; {@link SparkSessions} calls it once, before the root session
 * exists.
 */
public final class ExecutorJars {

    /**
     * What executors need that a Spark installation does not hold: one resource of each kind of jar
     * (a package folder, or a class file where a package is shared with other jars).
     */
    public static final List<String> MARKERS = List.of("dev/sluice/", "org/apache/iceberg/spark/", "com/amazon/deequ/",
            "org/postgresql/Driver.class", "org/h2/Driver.class");

    private static final Logger LOG = LoggerFactory.getLogger(ExecutorJars.class);
    private static final String NESTED = "jar:nested:";

    private ExecutorJars() {
    }

    /**
     * The jars holding {@link #MARKERS} on {@code loader}'s class path, each once, in marker order;
     * where no plain jar file exists, a copy or packed jar in {@code cache}. A jar copied out of an
     * executable jar is named by its CRC-32 and kept, so the next process (or one killed before it
     * could clean up) reuses it instead of adding another copy; a packed folder of classes is
     * packed again by each process and removed when it ends. A marker found nowhere is logged.
     *
     * @throws UncheckedIOException when a class-path entry cannot be read or a jar not written
     */
    public static List<Path> resolve(ClassLoader loader, Path cache) {
        Map<String, Path> byRoot = new LinkedHashMap<>();
        try {
            Files.createDirectories(cache);
            sweep(cache);
            for (String marker : MARKERS) {
                List<URL> urls = Collections.list(loader.getResources(marker));
                if (urls.isEmpty()) {
                    LOG.warn("spark: nothing on the class path holds {}; executors will lack it", marker);
                }
                for (URL url : urls) {
                    String s = url.toString();
                    String root = s.substring(0, s.length() - marker.length());
                    if (!byRoot.containsKey(root)) {
                        byRoot.put(root, materialise(root, cache));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lay out the jars Spark's executors need in " + cache, e);
        }
        return List.copyOf(byRoot.values());
    }

    /**
     * Prints the jars a cluster's executors would get from this class path, one path per line,
     * copied into the folder given as the only argument (default {@code java.io.tmpdir}'s
     * {@code sluice-executor-jars}). In an executable jar:
     * {@code java -cp sluice.jar -Dloader.main=dev.sluice.spark.ExecutorJars org.springframework.boot.loader.launch.PropertiesLauncher DIR}.
     */
    public static void main(String[] args) {
        Path cache = args.length > 0 ? Path.of(args[0]) : Path.of(System.getProperty("java.io.tmpdir"), "sluice-executor-jars");
        resolve(Thread.currentThread().getContextClassLoader(), cache).forEach(System.out::println);
    }

    /** One class-path root ({@code file:/…/classes/}, {@code jar:file:/…/x.jar!/} or a nested one) as a local jar. */
    private static Path materialise(String root, Path cache) throws IOException {
        if (root.startsWith(NESTED)) {
            // Spring Boot's nested URL: the outer path percent-encoded (a '!' in it is %21), then "/!" and the entry
            String rest = root.substring(NESTED.length());
            int bang = rest.indexOf("/!");
            if (bang < 0) {
                throw new IOException("a class-path entry Sluice cannot ship to Spark's executors (no /! in the nested URL): " + root);
            }
            Path outer = Path.of(decode(rest.substring(0, bang)));
            String inner = decode(rest.substring(bang + 2));
            inner = inner.endsWith("!/") ? inner.substring(0, inner.length() - 2) : inner;
            if (inner.endsWith(".jar")) {
                return extract(outer, inner, cache);
            }
            Path packed = cache.resolve(Files.size(outer) + "-" + Files.getLastModifiedTime(outer).toMillis() + "-"
                    + outer.getFileName() + "-classes.jar");
            return Files.exists(packed) ? packed : published(pack(outer, inner, temporary(cache)), packed);
        }
        if (root.startsWith("jar:file:") && root.endsWith("!/")) {
            return toPath(root.substring("jar:".length(), root.length() - 2));
        }
        if (root.startsWith("file:")) {
            Path dir = toPath(root);
            // a build's folder (target/classes): named after its module, its own copy per process
            Path packed = pack(dir, cache.resolve(PRIVATE + dir.getParent().getFileName() + "-" + dir.getFileName() + "-"
                    + UUID.randomUUID().toString().substring(0, 8) + ".jar"));
            packed.toFile().deleteOnExit();
            return packed;
        }
        throw new IOException("a class-path entry Sluice cannot ship to Spark's executors: " + root);
    }

    /**
     * The jar {@code entry} of {@code outer} (an executable jar's {@code BOOT-INF/lib/x.jar}) as
     * {@code cache/<crc32>-x.jar}: copied once, reused while its size matches.
     */
    private static Path extract(Path outer, String entry, Path cache) throws IOException {
        try (JarFile jar = new JarFile(outer.toFile())) {
            JarEntry e = required(jar, entry);
            Path target = cache.resolve(Long.toHexString(e.getCrc()) + "-" + entry.substring(entry.lastIndexOf('/') + 1));
            if (Files.exists(target) && Files.size(target) == e.getSize()) {
                return target;
            }
            Path tmp = temporary(cache);
            try (InputStream in = jar.getInputStream(e)) {
                Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
            }
            return published(tmp, target);
        }
    }

    /** The name prefix of a jar one process packed from a build folder for itself (deleted on exit). */
    private static final String PRIVATE = "process-";

    /**
     * Deletes what killed processes left behind: jars half written ({@code .writing-*}) and the
     * private packs of build folders ({@code process-*}, which {@code deleteOnExit} does not delete
     * after a SIGKILL), once older than a day, so that no running process still uses them.
     */
    private static void sweep(Path cache) throws IOException {
        java.nio.file.attribute.FileTime dayAgo = java.nio.file.attribute.FileTime.from(java.time.Instant.now().minus(java.time.Duration.ofDays(1)));
        try (var files = Files.list(cache)) {
            for (Path f : files.toList()) {
                String name = f.getFileName().toString();
                if ((name.startsWith(".writing-") || name.startsWith(PRIVATE)) && Files.getLastModifiedTime(f).compareTo(dayAgo) < 0) {
                    Files.deleteIfExists(f);
                }
            }
        }
    }

    /** A new file name in {@code cache} for a jar being written (never one another process reads). */
    private static Path temporary(Path cache) {
        return cache.resolve(".writing-" + UUID.randomUUID() + ".jar");
    }

    /** Moves a finished jar to its name at once, so a reader never sees half of it. */
    private static Path published(Path written, Path target) throws IOException {
        Files.move(written, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return target;
    }

    /** Packs the entries of {@code outer} under {@code prefix} (e.g. {@code BOOT-INF/classes/}) into a jar, the prefix removed. */
    private static Path pack(Path outer, String prefix, Path target) throws IOException {
        String folder = prefix.endsWith("/") ? prefix : prefix + "/";
        try (JarFile jar = new JarFile(outer.toFile()); JarOutputStream out = new JarOutputStream(Files.newOutputStream(target))) {
            for (JarEntry e : Collections.list(jar.entries())) {
                if (e.getName().startsWith(folder) && e.getName().length() > folder.length()) {
                    out.putNextEntry(new JarEntry(e.getName().substring(folder.length())));
                    if (!e.isDirectory()) {
                        try (InputStream in = jar.getInputStream(e)) {
                            in.transferTo(out);
                        }
                    }
                    out.closeEntry();
                }
            }
        }
        return target;
    }

    /** Packs a folder of classes into a jar. */
    private static Path pack(Path dir, Path target) throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.filter(p -> !p.equals(dir)).sorted().forEach(files::add);
        }
        try (OutputStream os = Files.newOutputStream(target); JarOutputStream out = new JarOutputStream(os)) {
            for (Path p : files) {
                String name = dir.relativize(p).toString().replace('\\', '/');
                boolean folder = Files.isDirectory(p);
                out.putNextEntry(new JarEntry(folder ? name + "/" : name));
                if (!folder) {
                    Files.copy(p, out);
                }
                out.closeEntry();
            }
        }
        return target;
    }

    private static JarEntry required(JarFile jar, String entry) throws IOException {
        JarEntry e = jar.getJarEntry(entry);
        if (e == null) {
            throw new IOException(jar.getName() + " holds no " + entry);
        }
        return e;
    }

    private static Path toPath(String fileUrl) throws IOException {
        try {
            return Path.of(new URL(fileUrl).toURI());
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new IOException("not a local file: " + fileUrl, e);
        }
    }

    private static String decode(String s) {
        return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }
}
