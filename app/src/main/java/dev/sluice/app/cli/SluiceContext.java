package dev.sluice.app.cli;

import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.config.SluiceEnvironment;
import dev.sluice.config.design.DesignRules;
import dev.sluice.core.BadInputException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * What every command shares: the environment (SLUICE_HOME and interpolation) and where pipeline
 * specs live ({@code SLUICE_PIPELINES}, default {@code ./pipelines}).
 */
final class SluiceContext {

    private final SluiceEnvironment env;

    SluiceContext(SluiceEnvironment env) {
        this.env = env;
    }

    SluiceEnvironment env() {
        return env;
    }

    Path home() {
        return env.home();
    }

    Path pipelinesDir() {
        String dir = env.apply("SLUICE_PIPELINES");
        return Path.of(dir == null || dir.isBlank() ? "pipelines" : dir);
    }

    /**
     * A spec file from a pipeline name ({@code flights} → pipelines/flights.yaml) or a path.
     *
     * @throws dev.sluice.core.BadInputException (exit 2) when there is no such file: naming the
     *     nearest known pipelines and listing those of its folder
     */
    Path specFile(String nameOrPath) {
        Path asPath = Path.of(nameOrPath);
        boolean isPath = nameOrPath.endsWith(".yaml") || nameOrPath.endsWith(".yml") || Files.isRegularFile(asPath);
        Path file = isPath ? asPath : pipelinesDir().resolve(nameOrPath + ".yaml");
        if (!Files.isRegularFile(file)) {
            Path dir = isPath ? Objects.requireNonNullElse(asPath.toAbsolutePath().getParent(), Path.of("")) : pipelinesDir();
            List<String> known = pipelines(dir);
            String name = file.getFileName().toString().replaceFirst("\\.ya?ml$", "");
            throw new BadInputException("PIPELINE", -1, null, "no pipeline '" + nameOrPath + "': " + file
                    + " does not exist" + (NearestNames.of(name, known).isEmpty() ? "" : NearestNames.suggestion(name, known))
                    + " (pipelines in " + dir + ": " + (known.isEmpty() ? "none" : String.join(", ", known)) + ")");
        }
        return file;
    }

    /** The pipeline names of {@code dir} (its {@code *.yaml} files without the extension), sorted; empty when it cannot be read. */
    static List<String> pipelines(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".yaml"))
                    .map(n -> n.substring(0, n.length() - ".yaml".length())).sorted().toList();
        } catch (IOException | UncheckedIOException e) {
            return List.of();
        }
    }

    /**
     * False for an H2 file warehouse whose file does not exist yet (opening it would create it); true
     * otherwise (another database is assumed to exist).
     */
    static boolean warehouseExists(PipelineSpec spec) {
        String url = spec.warehouse().url();
        if (!url.startsWith("jdbc:h2:file:")) {
            return true;
        }
        String path = url.substring("jdbc:h2:file:".length()).split(";", 2)[0];
        if (path.startsWith("~")) {
            path = System.getProperty("user.home") + path.substring(1);
        }
        return Files.exists(Path.of(path + ".mv.db"));
    }

    PipelineSpecLoader loader() {
        return new PipelineSpecLoader(env.interpolator());
    }

    /**
     * Loads a spec for {@code run}, {@code backfill} or {@code scheduler}: also held to the design
     * rules ({@link dev.sluice.config.design.DesignRules}). Warnings go to {@code err}; errors (and
     * warnings when {@code strict} or {@code SLUICE_STRICT=true}) refuse it.
     *
     * @throws dev.sluice.core.BadInputException naming every blocking finding (exit 2)
     */
    PipelineSpec loadToRun(String nameOrPath, boolean strict, PrintWriter err) {
        PipelineSpec spec = load(nameOrPath);
        boolean isStrict = strict || "true".equalsIgnoreCase(env.apply("SLUICE_STRICT"));
        var findings = DesignRules.check(spec);
        var blocking = DesignRules.blocking(findings, isStrict);
        findings.stream().filter(f -> !blocking.contains(f)).forEach(f -> err.println((f.exemption() == null ? "warning: " : "") + f.describe()));
        if (!blocking.isEmpty()) {
            StringBuilder m = new StringBuilder("pipeline " + spec.name() + " breaks " + blocking.size() + " design rule(s)"
                    + (isStrict ? " (strict: warnings count)" : "") + "; `sluice validate " + spec.file() + "` lists them:");
            blocking.forEach(f -> m.append("\n  ").append(f.describe()));
            throw new BadInputException(spec.file().toString(), -1, null, m.toString());
        }
        return spec;
    }

    /** Loads a spec; problems (a missing file among them) become a SpecValidationException. */
    PipelineSpec load(String nameOrPath) {
        return loader().load(specFile(nameOrPath));
    }

    /**
     * Loads a spec for a command that inspects the warehouse and runs nothing: PII keys that are not
     * set are not required ({@link PipelineSpecLoader#forInspection}).
     */
    PipelineSpec loadForInspection(String nameOrPath) {
        return PipelineSpecLoader.forInspection(env.interpolator()).load(specFile(nameOrPath));
    }
}
