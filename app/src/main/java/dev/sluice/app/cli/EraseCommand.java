package dev.sluice.app.cli;

import dev.sluice.engine.LayerEngines;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.BadInputException;
import dev.sluice.operations.erase.Erasure;
import dev.sluice.warehouse.Warehouse;
import dev.sluice.warehouse.meta.ErasureLogTable;
import java.util.concurrent.Callable;
import org.springframework.transaction.support.TransactionTemplate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code sluice erase --pipeline P --column C --value V --reason R}: redacts a data subject's raw
 * value in Bronze and the quarantine, in one transaction, recorded in {@code sluice.erasure_log}
 * (see {@link Erasure}). Prints the counts and the partitions to re-run so that Silver and Gold
 * are re-built without the subject's tokens.
 */
@Command(name = "erase", mixinStandardHelpOptions = true,
        description = "Redact a data subject's raw value of one column in Bronze and the quarantine (erasure request; audited in " + ErasureLogTable.NAME + ").")
final class EraseCommand implements Callable<Integer> {

    private final SluiceContext ctx;

    @Option(names = "--pipeline", required = true, paramLabel = "PIPELINE", description = "pipeline name (pipelines/<name>.yaml) or spec file")
    String pipeline;

    @Option(names = "--column", required = true, paramLabel = "COLUMN", description = "a source contract column, e.g. last_name")
    String column;

    @Option(names = "--value", required = true, paramLabel = "VALUE", description = "the exact raw value to erase (case-sensitive)")
    String value;

    @Option(names = "--reason", required = true, description = "why, e.g. the erasure request's ticket (recorded)")
    String reason;

    @Option(names = "--requested-by", description = "who asked (recorded; default: the OS user)")
    String requestedBy;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec command;

    EraseCommand(SluiceContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        if (reason.isBlank()) {
            throw new BadInputException("--reason", -1, null, "say why (e.g. the request's ticket): it is recorded");
        }
        PipelineSpec spec = ctx.loadForInspection(pipeline);
        String who = requestedBy == null || requestedBy.isBlank() ? System.getProperty("user.name") : requestedBy;
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            Erasure.Result r = new TransactionTemplate(w.transactionManager()).execute(status ->
                    new Erasure(w.dsl(), LayerEngines.on(w).forPipeline(spec)).erase(spec, column, value, who, reason));
            var out = command.commandLine().getOut();
            out.println("erasure #" + r.erasureId() + " of " + spec.name() + "." + column + ": " + r.bronzeRows()
                    + " Bronze row(s) and " + r.quarantineRows() + " quarantined row(s) redacted");
            if (r.partitions().isEmpty()) {
                out.println("No row held the value.");
            } else {
                out.println("Partitions that held it: " + String.join(", ", r.partitions()));
                out.println("Re-build their Silver and Gold without the subject's tokens: sluice run " + spec.name()
                        + " --partition <P> --rerun (for each partition above).");
                out.println("The landed source files are not Sluice's and still hold the value: ask their owner to remove it.");
            }
        }
        return ExitCodes.OK;
    }
}
