package dev.sluice.app.cli;

import dev.sluice.sampledata.SampleDataInstaller;
import dev.sluice.sampledata.SampleDataSpec;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code sluice sample-data}: fetch, verify and lay out the vega-datasets sample under SLUICE_HOME/landing. */
@Command(name = "sample-data", mixinStandardHelpOptions = true, description = "Fetch the sample data (npm pack), verify its sha256 and lay out $${SLUICE_HOME}/landing.")
final class SampleDataCommand implements Callable<Integer> {

    private final SluiceContext ctx;

    @Spec
    CommandSpec command;

    SampleDataCommand(SluiceContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        install(ctx, command.commandLine().getOut());
        return ExitCodes.OK;
    }

    static SampleDataInstaller.Result install(SluiceContext ctx, PrintWriter out) {
        SampleDataSpec spec = SampleDataSpec.pinned(ctx.env().variables());
        return new SampleDataInstaller(spec, ctx.home(), line -> out.println("sample-data: " + line)).install();
    }
}
