package dev.sluice.app.cli;

import dev.sluice.engine.LayerEngines;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.Severity;
import dev.sluice.config.SpecProblem;
import dev.sluice.config.design.DesignFinding;
import dev.sluice.config.design.DesignRules;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice validate <spec> [--strict]}: every problem of a spec and its contracts at once; for
 * a lakehouse pipeline, its Silver/Gold SQL and quarantine rules parsed by Spark's parser
 * (its engine's {@code EngineProvider#validate}); then the design rules ({@link DesignRules}: id, severity, file and key path, message); exit 2 when
 * the spec is invalid or a rule fails with severity error (or any rule with {@code --strict}), else 0.
 */
@Command(name = "validate", mixinStandardHelpOptions = true, description = {"Check a pipeline spec and its contracts; list every problem.",
        "Then the design rules: errors block run, scheduler and backfill; warnings are printed (--strict: they block too)."})
final class ValidateCommand implements Callable<Integer> {

    private final SluiceContext ctx;

    @Parameters(index = "0", paramLabel = "SPEC", description = "a spec file (pipelines/flights.yaml) or pipeline name (flights)")
    String spec;

    @picocli.CommandLine.Option(names = "--strict", description = "warnings count as errors (also SLUICE_STRICT=true)")
    boolean strict;

    @Spec
    CommandSpec command;

    ValidateCommand(SluiceContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        Path file = ctx.specFile(spec);
        List<SpecProblem> problems = ctx.loader().validate(file);
        if (problems.isEmpty()) {
            PipelineSpec loaded = ctx.loader().load(file);
            problems = LayerEngines.provider(loaded).validate(loaded);
            if (problems.isEmpty()) {
                return designRules(file, loaded);
            }
        }
        PrintWriter err = command.commandLine().getErr();
        err.println(file + ": " + problems.size() + " problem(s)");
        for (SpecProblem p : problems) {
            err.println("  " + p.describe());
        }
        return ExitCodes.INVALID;
    }

    /** Prints the design rules' findings of a valid spec; {@link ExitCodes#INVALID} when one blocks. */
    private int designRules(Path file, PipelineSpec loaded) {
        PrintWriter out = command.commandLine().getOut();
        List<DesignFinding> findings = DesignRules.check(loaded);
        boolean isStrict = strict || "true".equalsIgnoreCase(ctx.env().apply("SLUICE_STRICT"));
        List<DesignFinding> blocking = DesignRules.blocking(findings, isStrict);
        if (findings.isEmpty()) {
            out.println(file + ": valid; every design rule holds");
            return ExitCodes.OK;
        }
        PrintWriter to = blocking.isEmpty() ? out : command.commandLine().getErr();
        to.println(file + ": " + (blocking.isEmpty() ? "valid; " : "")
                + findings.stream().filter(f -> f.exemption() == null && f.severity() == Severity.ERROR).count()
                + " design error(s), "
                + findings.stream().filter(f -> f.exemption() == null && f.severity() == Severity.WARN).count()
                + " warning(s)"
                + (findings.stream().anyMatch(f -> f.exemption() != null)
                        ? ", " + findings.stream().filter(f -> f.exemption() != null).count() + " exempted" : "")
                + (isStrict ? " (strict)" : ""));
        findings.forEach(f -> to.println("  " + f.describe()));
        return blocking.isEmpty() ? ExitCodes.OK : ExitCodes.INVALID;
    }
}
