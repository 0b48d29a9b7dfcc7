package dev.sluice.app.cli;

import dev.sluice.config.PipelineSpec;
import dev.sluice.core.BadInputException;
import dev.sluice.hotpath.LiveReplay;
import dev.sluice.warehouse.Warehouse;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code sluice replay <pipeline> --from-time T | --from-offsets P:O[,P:O…]}: moves the hot path's
 * stored positions back so that the next {@code sluice hot-path} reads again from there; the
 * idempotent sink and windows end identical. Refused while the consumer group has active members.
 */
@Command(name = "replay", mixinStandardHelpOptions = true,
        description = {"Re-read a hot path's topic from a time or from offsets (run it while `sluice hot-path` is stopped).",
                "The sink, quarantine and windows are idempotent: they end identical, plus whatever was not read yet."})
final class ReplayCommand implements Callable<Integer> {

    private final SluiceContext ctx;

    @Parameters(index = "0", paramLabel = "PIPELINE", description = "a pipeline with a hot_path")
    String pipeline;

    @CommandLine.ArgGroup(exclusive = true, multiplicity = "1")
    From from;

    static final class From {
        @Option(names = "--from-time", paramLabel = "T", description = "an instant, e.g. 2001-01-02T06:00:00Z (record timestamps: event times)")
        String time;

        @Option(names = "--from-offsets", paramLabel = "P:O,…", description = "partition:offset pairs, e.g. 0:1200,1:980")
        String offsets;
    }

    @CommandLine.Spec
    CommandLine.Model.CommandSpec command;

    ReplayCommand(SluiceContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        PipelineSpec spec = ctx.load(pipeline);
        if (spec.hotPath() == null) {
            throw new BadInputException(spec.file().toString(), -1, "hot_path", "pipeline " + spec.name() + " declares no hot path");
        }
        PrintWriter out = command.commandLine().getOut();
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            Map<Integer, Long> moved;
            if (from.time != null) {
                Instant t;
                try {
                    t = Instant.parse(from.time);
                } catch (DateTimeParseException e) {
                    throw new BadInputException("--from-time", -1, null, "'" + from.time + "' is not an instant such as 2001-01-02T06:00:00Z");
                }
                moved = LiveReplay.fromTime(spec, w, t, Map.of());
            } else {
                moved = LiveReplay.fromOffsets(spec, w, parse(from.offsets), Map.of());
            }
            out.println("replay of " + spec.hotPath().topic() + " (group " + spec.hotPath().groupId() + "): positions moved to " + moved
                    + "; the next `sluice hot-path " + spec.name() + "` reads again from there");
            return ExitCodes.OK;
        }
    }

    private static Map<Integer, Long> parse(String text) {
        Map<Integer, Long> out = new LinkedHashMap<>();
        for (String pair : text.split(",")) {
            String[] po = pair.trim().split(":");
            try {
                if (po.length != 2 || Long.parseLong(po[1]) < 0) {
                    throw new NumberFormatException();
                }
                out.put(Integer.parseInt(po[0]), Long.parseLong(po[1]));
            } catch (NumberFormatException e) {
                throw new BadInputException("--from-offsets", -1, null, "'" + pair.trim() + "' is not partition:offset (e.g. 0:1200)");
            }
        }
        return out;
    }
}
