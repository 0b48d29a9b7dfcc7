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
