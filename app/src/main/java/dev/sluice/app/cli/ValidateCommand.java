package dev.sluice.app.cli;

import dev.sluice.config.SpecProblem;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code sluice validate <spec>}: every problem of a spec and its contracts at once; exit 0 or 2. */
@Command(name = "validate", mixinStandardHelpOptions = true, description = "Check a pipeline spec and its contracts; list every problem.")
final class ValidateCommand implements Callable<Integer> {

    private final SluiceContext ctx;

    @Parameters(index = "0", paramLabel = "SPEC", description = "a spec file (pipelines/flights.yaml) or pipeline name (flights)")
    String spec;

    @Spec
    CommandSpec command;

    ValidateCommand(SluiceContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        Path file = ctx.specFile(spec);
        List<SpecProblem> problems = ctx.loader().validate(file);
        PrintWriter out = command.commandLine().getOut();
        if (problems.isEmpty()) {
            out.println(file + ": valid");
            return ExitCodes.OK;
        }
        PrintWriter err = command.commandLine().getErr();
        err.println(file + ": " + problems.size() + " problem(s)");
        for (SpecProblem p : problems) {
            err.println("  " + p.describe());
        }
        return ExitCodes.INVALID;
    }
}
