package dev.sluice.app.cli;

import dev.sluice.operations.docs.DesignDocument;
import dev.sluice.operations.docs.RunHistory;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.BadInputException;
import dev.sluice.core.SluiceException;
import dev.sluice.warehouse.Warehouse;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sluice docs <pipeline> [--out file.md] [--no-runs]}: the pipeline's design document
 * ({@link DesignDocument}) on stdout or in a file. The run-derived part (recent runs, quality
 * history) is added when the warehouse exists, is reachable and holds runs of the pipeline; an H2
 * file warehouse that does not exist yet is not created. Exit 2 for an unknown pipeline.
 */
@Command(name = "docs", mixinStandardHelpOptions = true,
        description = "Render a pipeline's design document in Markdown (mode, flow, contracts, gates, idempotency, lineage,"
                + " procedures, monitoring, ownership, design rules), with recent runs and quality history when the warehouse has them.")
final class DocsCommand implements Callable<Integer> {

    private final SluiceContext ctx;

    @Parameters(index = "0", paramLabel = "PIPELINE", description = "pipeline name (pipelines/<name>.yaml) or spec file")
    String pipeline;

    @Option(names = "--out", paramLabel = "FILE", description = "write the document here (folders are created) instead of stdout")
    @Nullable Path out;

    @Option(names = "--no-runs", description = "the spec-derived part only: do not read the warehouse")
    boolean noRuns;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec command;

    DocsCommand(SluiceContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        PipelineSpec spec = ctx.loadForInspection(pipeline);
        RunHistory history = noRuns ? null : history(spec);
        String doc = DesignDocument.render(spec, ctx.home(), history);
        PrintWriter stdout = command.commandLine().getOut();
        if (out == null) {
            stdout.print(doc);
            stdout.flush();
            return ExitCodes.OK;
        }
        try {
            Path parent = out.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(out, doc);
        } catch (IOException e) {
            throw new BadInputException(out.toString(), -1, null, "cannot write the document: " + e.getMessage(), e);
        }
        stdout.println(out + ": design document of " + spec.name() + (history == null || history.isEmpty() ? " (spec-derived part only)"
                : " with " + history.runs().size() + " recent run(s) and the quality history"));
        return ExitCodes.OK;
    }

    /** The warehouse's recent runs, or null when there is no warehouse yet or it cannot be reached (said on stderr). */
    private @Nullable RunHistory history(PipelineSpec spec) {
        if (!SluiceContext.warehouseExists(spec)) {
            return null; // no warehouse yet: nothing has run, and opening it would create one
        }
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            return RunHistory.read(w.dsl(), spec.name());
        } catch (SluiceException e) {
            command.commandLine().getErr().println("sluice: the warehouse cannot be read, so the document has no run-derived part: "
                    + e.getMessage());
            return null;
        }
    }
}
