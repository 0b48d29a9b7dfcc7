package dev.sluice.app.cli;

import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.config.SluiceEnvironment;
import java.nio.file.Files;
import java.nio.file.Path;

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

    /** A spec file from a pipeline name ({@code flights} → pipelines/flights.yaml) or a path. */
    Path specFile(String nameOrPath) {
        Path asPath = Path.of(nameOrPath);
        if (nameOrPath.endsWith(".yaml") || nameOrPath.endsWith(".yml") || Files.isRegularFile(asPath)) {
            return asPath;
        }
        return pipelinesDir().resolve(nameOrPath + ".yaml");
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
    PipelineSpec loadToRun(String nameOrPath, boolean strict, java.io.PrintWriter err) {
        PipelineSpec spec = load(nameOrPath);
        boolean isStrict = strict || "true".equalsIgnoreCase(env.apply("SLUICE_STRICT"));
        var findings = dev.sluice.config.design.DesignRules.check(spec);
        var blocking = dev.sluice.config.design.DesignRules.blocking(findings, isStrict);
        findings.stream().filter(f -> !blocking.contains(f)).forEach(f -> err.println((f.exemption() == null ? "warning: " : "") + f.describe()));
        if (!blocking.isEmpty()) {
            StringBuilder m = new StringBuilder("pipeline " + spec.name() + " breaks " + blocking.size() + " design rule(s)"
                    + (isStrict ? " (strict: warnings count)" : "") + "; `sluice validate " + spec.file() + "` lists them:");
            blocking.forEach(f -> m.append("\n  ").append(f.describe()));
            throw new dev.sluice.core.BadInputException(spec.file().toString(), -1, null, m.toString());
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
