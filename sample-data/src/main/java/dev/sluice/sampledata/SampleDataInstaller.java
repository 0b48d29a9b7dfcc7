package dev.sluice.sampledata;

import dev.sluice.core.SluiceException;
import dev.sluice.formats.FileDigest;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/**
 * {@code sluice sample-data}: fetches the pinned sample package with {@code npm pack}, verifies
 * the tarball's SHA-256, and lays out the landing zone under the Sluice home:
 * <pre>
 * landing/flights/dt=YYYY-MM-DD/flights.parquet   one file per flight date (flights-3m.parquet split)
 * landing/airports/airports.csv                    the airports reference
 * landing/earthquakes/earthquakes.json             the USGS feed (GeoJSON, a week of events)
 * landing/la_riots/la-riots.csv                    deaths in the 1992 Los Angeles riots (personal data)
 * landing/.sample-data.properties                  manifest: tarball and file SHA-256s
 * </pre>
 * The tarball is kept in {@code cache/}. Idempotent: when the manifest matches the tarball and
 * every file, nothing is written. Files are laid out in a temporary folder and moved into place,
 * so an interrupted run leaves no half-written landing zone behind. Not thread-safe (one per home).
 */
public final class SampleDataInstaller {

    private static final String FLIGHTS = "package/data/flights-3m.parquet";
    private static final Map<String, String> COPIES = Map.of(
            "package/data/airports.csv", "airports/airports.csv",
            "package/data/earthquakes.json", "earthquakes/earthquakes.json",
            "package/data/la-riots.csv", "la_riots/la-riots.csv");
    private static final String MANIFEST = ".sample-data.properties";

    private final SampleDataSpec spec;
    private final Path home;
    private final Consumer<String> progress;

    /**
     * @param progress receives one line per stage (for the command line)
     */
    public SampleDataInstaller(SampleDataSpec spec, Path home, Consumer<String> progress) {
        this.spec = spec;
        this.home = home;
        this.progress = progress;
    }

    /**
     * What the landing zone holds after {@link #install()}.
     *
     * @param changed false when everything was already in place and verified
     * @param landing the landing folder
     * @param flightPartitions the number of flight dates (files)
     * @param flightRows the rows across the flight files
     */
    public record Result(boolean changed, Path landing, int flightPartitions, long flightRows) {
    }

    /**
     * Fetches, verifies and lays out the sample data.
     *
     * @throws SluiceException when npm is missing or fails, or the tarball's SHA-256 differs from the pinned one
     */
    public Result install() {
        try {
            Path cache = Files.createDirectories(home.resolve("cache"));
            Path landing = Files.createDirectories(home.resolve("landing"));
            Path tarball = cache.resolve(tarballName(spec.packageSpec()));
            if (!Files.isRegularFile(tarball) || !spec.sha256().equals(FileDigest.sha256(tarball))) {
                pack(cache, tarball);
            }
            String sha = FileDigest.sha256(tarball);
            if (!sha.equals(spec.sha256())) {
                Files.deleteIfExists(tarball);
                throw new SluiceException("the sample tarball " + tarball.getFileName() + " has SHA-256 " + sha
                        + ", expected " + spec.sha256() + " (pinned in sample-data.properties or SLUICE_SAMPLE_SHA256);"
                        + " it was deleted and nothing was laid out");
            }
            progress.accept("verified " + tarball.getFileName() + " (sha256 " + sha.substring(0, 12) + "…)");
            Properties manifest = readManifest(landing);
            if (sha.equals(manifest.getProperty("tarball.sha256")) && filesMatch(landing, manifest)
                    && COPIES.values().stream().allMatch(c -> manifest.containsKey("file." + c))
                    && Files.isRegularFile(rawFolder(home, spec).resolve("flights-3m.parquet"))) {
                progress.accept("landing zone " + landing + " already laid out and verified; nothing to do");
                return new Result(false, landing, Integer.parseInt(manifest.getProperty("flights.partitions")),
                        Long.parseLong(manifest.getProperty("flights.rows")));
            }
            return layOut(tarball, sha, landing, manifest);
        } catch (IOException e) {
            throw new SluiceException("laying out the sample data under " + home + " failed: " + e.getMessage(), e);
        }
    }

    /**
     * Where the package's original data files are kept after extraction
     * ({@code cache/<package>-<version>/}: flights-3m.parquet, airports.csv, earthquakes.json),
     * for reference checks and benchmarks.
     */
    public static Path rawFolder(Path home, SampleDataSpec spec) {
        String name = tarballName(spec.packageSpec());
        return home.resolve("cache").resolve(name.substring(0, name.length() - ".tgz".length()));
    }

    /** npm's tarball name for a spec: {@code @scope/name@1.2.3} packs to {@code scope-name-1.2.3.tgz}. */
    static String tarballName(String packageSpec) {
        int at = packageSpec.lastIndexOf('@');
        if (at <= 0) {
            throw new SluiceException("the sample package spec '" + packageSpec + "' must pin a version (name@version)");
        }
        String name = packageSpec.substring(0, at).replace("@", "").replace('/', '-');
        return name + "-" + packageSpec.substring(at + 1) + ".tgz";
    }

    private void pack(Path cache, Path tarball) throws IOException {
        progress.accept("npm pack " + spec.packageSpec());
        Path log = Files.createTempFile("sluice-npm", ".log");
        ProcessBuilder pb = new ProcessBuilder(spec.npm(), "pack", spec.packageSpec(), "--pack-destination",
                cache.toAbsolutePath().toString(), "--silent")
                .redirectErrorStream(true).redirectOutput(log.toFile());
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new SluiceException("cannot run '" + spec.npm() + "': " + e.getMessage()
                    + ". Install Node.js with npm, or point SLUICE_NPM at npm.", e);
        }
        try {
            if (!p.waitFor(10, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new SluiceException("npm pack " + spec.packageSpec() + " did not finish within 10 minutes");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SluiceException("interrupted while npm pack ran", e);
        }
        String output = Files.readString(log, StandardCharsets.UTF_8).strip();
        Files.deleteIfExists(log);
        if (p.exitValue() != 0 || !Files.isRegularFile(tarball)) {
            throw new SluiceException("npm pack " + spec.packageSpec() + " failed (exit " + p.exitValue() + "): "
                    + output.lines().reduce((a, b) -> b).orElse("no output"));
        }
    }

    private Result layOut(Path tarball, String sha, Path landing, Properties previous) throws IOException {
        Path staging = Files.createTempDirectory(landing, ".staging-");
        try {
            Path raw = rawFolder(home, spec);
            deleteTree(raw);
            Files.createDirectories(raw);
            extract(tarball, raw);
            progress.accept("splitting flights-3m.parquet into one file per flight date");
            FlightsSplitter.Split split = FlightsSplitter.split(raw.resolve("flights-3m.parquet"), staging.resolve("flights"));
            Properties manifest = new Properties();
            manifest.setProperty("tarball", tarball.getFileName().toString());
            manifest.setProperty("tarball.sha256", sha);
            manifest.setProperty("flights.partitions", Integer.toString(split.files()));
            manifest.setProperty("flights.rows", Long.toString(split.rows()));
            for (Map.Entry<String, String> c : COPIES.entrySet()) {
                Path target = staging.resolve(c.getValue());
                Files.createDirectories(target.getParent());
                Files.copy(raw.resolve(Path.of(c.getKey()).getFileName()), target);
            }
            for (String top : List.of("flights", "airports", "earthquakes", "la_riots")) {
                replaceChanged(staging, landing, top, previous);
            }
            try (Stream<Path> files = Files.walk(landing)) {
                for (Path f : files.filter(Files::isRegularFile).filter(f -> !f.startsWith(staging))
                        .filter(f -> !f.getFileName().toString().startsWith(".")).sorted().toList()) {
                    manifest.setProperty("file." + landing.relativize(f), FileDigest.sha256(f));
                }
            }
            Path tmp = landing.resolve(MANIFEST + ".tmp");
            try (var out = Files.newOutputStream(tmp)) {
                manifest.store(out, "sluice sample-data: what was laid out, with SHA-256s");
            }
            Files.move(tmp, landing.resolve(MANIFEST), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            progress.accept("laid out " + split.files() + " flight partitions (" + split.rows() + " rows), airports, earthquakes and la_riots under " + landing);
            return new Result(true, landing, split.files(), split.rows());
        } finally {
            deleteTree(staging);
        }
    }

    /**
     * Moves the staged files of {@code top} into the landing zone, keeping each landed file that is
     * still exactly what the previous lay-out wrote (so that repairing one file does not make every
     * partition look changed to Bronze), and deleting landed files the new lay-out does not have.
     */
    private static void replaceChanged(Path staging, Path landing, String top, Properties previous) throws IOException {
        Path from = staging.resolve(top);
        Path to = landing.resolve(top);
        List<Path> staged;
        try (Stream<Path> s = Files.walk(from)) {
            staged = s.filter(Files::isRegularFile).map(from::relativize).sorted().toList();
        }
        Set<Path> keep = new HashSet<>(staged);
        if (Files.isDirectory(to)) {
            try (Stream<Path> s = Files.walk(to)) {
                for (Path old : s.filter(Files::isRegularFile).toList()) {
                    if (!keep.contains(to.relativize(old))) {
                        Files.delete(old);
                    }
                }
            }
        }
        for (Path rel : staged) {
            Path target = to.resolve(rel);
            String recorded = previous.getProperty("file." + landing.relativize(target));
            if (recorded != null && Files.isRegularFile(target) && recorded.equals(FileDigest.sha256(target))) {
                continue;
            }
            Files.createDirectories(target.getParent());
            Files.move(from.resolve(rel), target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static void extract(Path tarball, Path dir) throws IOException {
        Set<String> wanted = new HashSet<>(COPIES.keySet());
        wanted.add(FLIGHTS);
        try (InputStream in = new GZIPInputStream(Files.newInputStream(tarball), 1 << 16);
             TarArchiveInputStream tar = new TarArchiveInputStream(in)) {
            for (TarArchiveEntry e; (e = tar.getNextEntry()) != null; ) {
                if (wanted.remove(e.getName())) {
                    Files.copy(tar, dir.resolve(Path.of(e.getName()).getFileName()));
                }
            }
        }
        if (!wanted.isEmpty()) {
            throw new SluiceException("the sample tarball " + tarball.getFileName() + " lacks " + wanted);
        }
    }

    private static Properties readManifest(Path landing) throws IOException {
        Properties p = new Properties();
        Path f = landing.resolve(MANIFEST);
        if (Files.isRegularFile(f)) {
            try (var in = Files.newInputStream(f)) {
                p.load(in);
            }
        }
        return p;
    }

    private static boolean filesMatch(Path landing, Properties manifest) throws IOException {
        Map<String, String> files = new TreeMap<>();
        manifest.stringPropertyNames().stream().filter(k -> k.startsWith("file."))
                .forEach(k -> files.put(k.substring(5), manifest.getProperty(k)));
        if (files.isEmpty()) {
            return false;
        }
        for (Map.Entry<String, String> e : files.entrySet()) {
            Path f = landing.resolve(e.getKey());
            if (!Files.isRegularFile(f) || !e.getValue().equals(FileDigest.sha256(f))) {
                return false;
            }
        }
        return true;
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
