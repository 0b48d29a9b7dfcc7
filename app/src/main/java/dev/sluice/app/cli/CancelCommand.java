package dev.sluice.app.cli;

import dev.sluice.control.backfill.BackfillRepository;
import dev.sluice.control.run.RunRepository;
import dev.sluice.warehouse.Warehouse;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.BadInputException;
import dev.sluice.core.RunId;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sluice cancel <run-id> [--pipeline P]}: asks the process running a partition run (or a
 * backfill, and then each of its running partitions) to stop it. The request is recorded in the
 * warehouse, so it works across processes and hosts; the running process stops the job within its
 * {@code execution.control_poll} (a Bronze step at its next chunk boundary, a Silver/Gold step's
 * statement is cancelled) and records it STOPPED. A plain run (or the same backfill command)
 * resumes it from the stopped step. Exit 0 when the request was recorded, 2 when the id is not a
 * running run or backfill.
 */
@Command(name = "cancel", mixinStandardHelpOptions = true,
        description = {"Stop a running partition run or backfill (from any process); a restart resumes it.",
                "The running process stops within the pipeline's execution.control_poll and records STOPPED."})
final class CancelCommand implements Callable<Integer> {

    private final SluiceContext ctx;

    @Parameters(index = "0", paramLabel = "RUN_ID", description = "the run id of a partition run or a backfill (sluice status, run output)")
    String runId;

    @Option(names = "--pipeline", defaultValue = "flights", description = "whose warehouse records the run (default: ${DEFAULT-VALUE})")
    String pipeline;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec command;

    CancelCommand(SluiceContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        RunId id;
        try {
            id = RunId.parse(runId);
        } catch (RuntimeException e) {
            throw new BadInputException("RUN_ID", -1, null, "'" + runId + "' is not a run id (a UUID such as 01934a57-…)");
        }
        PipelineSpec spec = ctx.loadForInspection(pipeline);
        PrintWriter out = command.commandLine().getOut();
        String requester = System.getProperty("user.name");
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            RunRepository runs = new RunRepository(w.dsl());
            if (runs.requestCancel(id, requester)) {
                RunRepository.Owner owner = runs.owner(id).orElse(new RunRepository.Owner(null, null));
                boolean gone = RunRepository.thisHost().equals(owner.host())
                        && owner.pid() != null && ProcessHandle.of(owner.pid()).map(ph -> !ph.isAlive()).orElse(true);
                out.println(gone ? "cancel requested for run " + id + ", but the process that ran it (pid " + owner.pid()
                        + ") is gone: nothing is running; a plain run recovers the attempt and restarts it"
                        : "cancel requested for run " + id + ": the process running it stops it within "
                        + spec.execution().controlPoll().toMillis() + " ms and records it STOPPED; a plain run resumes it");
                return ExitCodes.OK;
            }
            if (new BackfillRepository(w.dsl()).requestCancel(id, requester)) {
                List<RunId> children = runs.startedWithTrace(id.toString());
                children.forEach(c -> runs.requestCancel(c, requester));
                out.println("cancel requested for backfill " + id + ": it starts no further partition, and its " + children.size()
                        + " running partition run(s) stop; invoking the same backfill again continues it");
                return ExitCodes.OK;
            }
            String status = runs.status(id).map(Enum::name).or(() -> new BackfillRepository(w.dsl()).status(id).map(Enum::name)).orElse(null);
            throw new BadInputException("RUN_ID", -1, null, status == null
                    ? "no run or backfill " + id + " is recorded in the warehouse of pipeline " + spec.name()
                    : id + " is not running (it is " + status + "): nothing to cancel");
        }
    }
}
