package dev.sluice.app.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.batch.freshness.DatasetFreshness;
import dev.sluice.batch.freshness.FreshnessMonitor;
import dev.sluice.warehouse.Warehouse;
import dev.sluice.config.PipelineSpec;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sluice status <pipeline> [--format table|json]}: per declared dataset the last published
 * partition, time since last update (TSLU), update interval, SLA, tier and state (ok, warn, breach,
 * never); then the partitions a fire skipped on purpose (MISSED) and the attempts that are FAILED
 * now.
 */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = "Freshness of a pipeline's datasets (TSLU against interval and SLA), missed and failed partitions.")
final class StatusCommand implements Callable<Integer> {

    private final SluiceContext ctx;

    @Parameters(index = "0", paramLabel = "PIPELINE", description = "pipeline name or spec file")
    String pipeline;

    @Option(names = "--format", defaultValue = "table", description = "table or json (default ${DEFAULT-VALUE})")
    String format;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec command;

    StatusCommand(SluiceContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        if (!format.equals("table") && !format.equals("json")) {
            throw new dev.sluice.core.BadInputException("--format", -1, null, "'" + format + "' is neither table nor json");
        }
        PipelineSpec spec = ctx.loadForInspection(pipeline);
        PrintWriter out = command.commandLine().getOut();
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            List<DatasetFreshness> datasets = new FreshnessMonitor(w.dsl(), Clock.systemUTC()).status(spec);
            List<String> missed = w.dsl().resultQuery("SELECT partition_key FROM sluice.missed_partition WHERE pipeline = ?"
                    + " ORDER BY partition_key", spec.name()).fetch(0, String.class);
            List<String> failed = w.dsl().resultQuery("SELECT r.partition_key || CASE WHEN r.status = 'STOPPED' THEN ' (STOPPED)' ELSE '' END"
                    + " FROM sluice.run r WHERE r.pipeline = ? AND r.status IN ('FAILED', 'STOPPED')"
                    + " AND r.attempt = (SELECT MAX(x.attempt) FROM sluice.run x WHERE x.pipeline = r.pipeline AND x.partition_key = r.partition_key)"
                    + " ORDER BY r.partition_key", spec.name()).fetch(0, String.class);
            if (format.equals("json")) {
                ObjectMapper json = new ObjectMapper();
                ObjectNode root = json.createObjectNode().put("pipeline", spec.name()).put("tier", spec.tier());
                ArrayNode ds = root.putArray("datasets");
                for (DatasetFreshness f : datasets) {
                    ds.addObject().put("dataset", f.dataset().qualifiedName()).put("owner", f.policy().owner())
                            .put("last_partition", f.lastPartition())
                            .put("last_published_at", f.lastPublishedAt() == null ? null : f.lastPublishedAt().toString())
                            .put("tslu_seconds", f.tslu() == null ? null : f.tslu().toSeconds())
                            .put("update_interval", f.policy().updateInterval().toString())
                            .put("freshness_sla", f.policy().freshnessSla().toString()).put("state", f.state().name().toLowerCase(Locale.ROOT));
                }
                missed.forEach(root.putArray("missed_partitions")::add);
                failed.forEach(root.putArray("failed_partitions")::add);
                out.println(root.toPrettyString());
                return ExitCodes.OK;
            }
            out.printf(Locale.ROOT, "pipeline %s, tier %s%n", spec.name(), spec.tier() == 0 ? "-" : Integer.toString(spec.tier()));
            if (datasets.isEmpty()) {
                out.println("no dataset declares an update interval and SLA (datasets: in the spec)");
            } else {
                out.printf(Locale.ROOT, "%-30s %-14s %-12s %-10s %-10s %-7s%n", "dataset", "last partition", "TSLU", "interval", "SLA", "state");
                for (DatasetFreshness f : datasets) {
                    out.printf(Locale.ROOT, "%-30s %-14s %-12s %-10s %-10s %-7s%n", f.dataset(),
                            f.lastPartition() == null ? "-" : f.lastPartition(), f.tslu() == null ? "-" : human(f.tslu()),
                            f.policy().updateInterval(), f.policy().freshnessSla(), f.state().name().toLowerCase(Locale.ROOT));
                }
            }
            out.println("missed partitions (tier 3, skipped on purpose; backfill them): " + (missed.isEmpty() ? "none" : String.join(", ", missed)));
            out.println("failed or stopped partitions (a plain run restarts them): " + (failed.isEmpty() ? "none" : String.join(", ", failed)));
            return ExitCodes.OK;
        }
    }

    private static String human(Duration d) {
        long h = d.toHours();
        return h >= 48 ? (h / 24) + "d " + (h % 24) + "h" : h + "h " + d.toMinutesPart() + "m";
    }
}
