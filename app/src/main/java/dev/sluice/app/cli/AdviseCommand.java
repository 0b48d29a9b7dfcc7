package dev.sluice.app.cli;

import dev.sluice.config.PipelineSpec;
import dev.sluice.config.design.ModeAdvice;
import dev.sluice.core.BadInputException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code sluice advise <pipeline>}: the mode the pipeline's declared {@code requirements} call for
 * ({@link ModeAdvice}: HYBRID, STREAMING, micro-batch or BATCH), with the reasons, and where the
 * declared design disagrees. Exit 0 when it agrees, 1 when it disagrees, 2 without requirements.
 */
@Command(name = "advise", mixinStandardHelpOptions = true,
        description = "Recommend a mode (hybrid, streaming, micro-batch, batch) from a pipeline's declared requirements,"
                + " and say where its design (layers, hot path, partitioning) disagrees (exit 1 when it does).")
final class AdviseCommand implements Callable<Integer> {

    private final SluiceContext ctx;

    @Parameters(index = "0", paramLabel = "PIPELINE", description = "pipeline name (pipelines/<name>.yaml) or spec file")
    String pipeline;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec command;

    AdviseCommand(SluiceContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        PipelineSpec spec = ctx.loadForInspection(pipeline);
        if (spec.requirements() == null) {
            throw new BadInputException(spec.file().toString(), -1, "requirements", "pipeline " + spec.name() + " declares no requirements:"
                    + " add requirements: {latency: PT30S, peak_events_per_second: N or peak_rows_per_day: N, live_numbers: true|false,"
                    + " history: true|false, reporting: none|hourly|daily|weekly}");
        }
        ModeAdvice advice = ModeAdvice.of(spec);
        PrintWriter out = command.commandLine().getOut();
        out.println(spec.name() + ": " + advice.mode().label());
        advice.reasons().forEach(r -> out.println("  because " + r));
        if (advice.disagreements().isEmpty()) {
            out.println("  the declared design agrees");
            return ExitCodes.OK;
        }
        advice.disagreements().forEach(d -> out.println("  disagrees: " + d));
        return ExitCodes.RUN_FAILED;
    }
}
