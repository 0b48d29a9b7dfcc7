package dev.sluice.app.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.app.schedule.MissedPartitions;
import dev.sluice.engine.LayerEngines;
import dev.sluice.control.run.RunRepository;
import dev.sluice.control.run.RunStatus;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.BadInputException;
import dev.sluice.core.SluiceException;
import dev.sluice.operations.freshness.DatasetFreshness;
import dev.sluice.operations.freshness.FreshnessMonitor;
import dev.sluice.operations.freshness.FreshnessState;
import dev.sluice.warehouse.Warehouse;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.jooq.exception.DataAccessException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code sluice status <pipeline> [--format table|json]}: per declared dataset the last published
 * partition, time since last update (TSLU), update interval, SLA, tier and state (ok, warn, breach,
 * never); then the partitions a fire skipped on purpose (MISSED) and the attempts that are FAILED
 * now. Without a pipeline: every pipeline of {@code SLUICE_PIPELINES}, one line each (last
 * partition loaded, the worst freshness state of its datasets, failed, stopped or killed partitions); a
 * pipeline whose warehouse does not exist yet is shown as never run, without creating it.
 */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = "Freshness of a pipeline's datasets (TSLU against interval and SLA), missed and failed partitions;"
                + " without a pipeline, one line for each pipeline.")
final class StatusCommand implements Callable<Integer> {

    private final SluiceContext ctx;

    @Parameters(index = "0", arity = "0..1", paramLabel = "PIPELINE",
            description = "pipeline name or spec file (default: every pipeline in SLUICE_PIPELINES, one line each)")
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
            throw new BadInputException("--format", -1, null, "'" + format + "' is neither table nor json");
        }
        PrintWriter out = command.commandLine().getOut();
        if (pipeline == null) {
            return everyPipeline(out);
        }
        PipelineSpec spec = ctx.loadForInspection(pipeline);
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            LayerEngines.on(w).forPipeline(spec).reconcilePublications(); // a rollback killed before its record
            List<DatasetFreshness> datasets = new FreshnessMonitor(w.dsl(), Clock.systemUTC()).status(spec);
            List<String> missed = MissedPartitions.keys(w.dsl(), spec.name());
            List<String> failed = failed(w, spec.name());
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

    /**
     * The latest attempts of {@code pipeline} that are FAILED, STOPPED or killed (STARTED, their process
     * gone: {@link RunRepository#killedPartitions}), by partition: {@code 2001-02-03 (STOPPED)},
     * {@code 2001-02-04 (KILLED)}.
     */
    private static List<String> failed(Warehouse w, String pipeline) {
        RunRepository runs = new RunRepository(w.dsl());
        java.util.SortedMap<String, String> out = new java.util.TreeMap<>();
        runs.latestByPartition(pipeline, EnumSet.of(RunStatus.FAILED, RunStatus.STOPPED)).values()
                .forEach(l -> out.put(l.partitionKey(), l.partitionKey() + (l.status() == RunStatus.STOPPED ? " (STOPPED)" : "")));
        runs.killedPartitions(pipeline).forEach(k -> out.put(k, k + " (KILLED)"));
        return List.copyOf(out.values());
    }

    /**
     * One pipeline's line of {@code sluice status} without a pipeline.
     *
     * @param lastPartition the newest partition loaded (a COMPLETED attempt), or null
     * @param freshness the worst state of its datasets ({@code breach}, {@code warn}, {@code never},
     *     {@code ok}), or null when none declares an update interval and SLA
     * @param failed its failed or stopped partitions
     * @param problem why the pipeline could not be read (an invalid spec, an unreachable warehouse), or null
     */
    private record PipelineLine(String pipeline, String lastPartition, String freshness, List<String> failed, String problem) {
    }

    private int everyPipeline(PrintWriter out) {
        List<String> names = SluiceContext.pipelines(ctx.pipelinesDir());
        List<PipelineLine> lines = new ArrayList<>();
        for (String name : names) {
            lines.add(line(name));
        }
        if (format.equals("json")) {
            ObjectMapper json = new ObjectMapper();
            ObjectNode root = json.createObjectNode().put("pipelines_dir", ctx.pipelinesDir().toAbsolutePath().toString());
            ArrayNode ps = root.putArray("pipelines");
            for (PipelineLine l : lines) {
                ObjectNode n = ps.addObject().put("pipeline", l.pipeline()).put("last_partition", l.lastPartition())
                        .put("freshness", l.freshness());
                l.failed().forEach(n.putArray("failed_partitions")::add);
                n.put("problem", l.problem());
            }
            out.println(root.toPrettyString());
            return ExitCodes.OK;
        }
        if (names.isEmpty()) {
            out.println("no pipeline specs in " + ctx.pipelinesDir().toAbsolutePath() + " (SLUICE_PIPELINES)");
            return ExitCodes.OK;
        }
        out.printf(Locale.ROOT, "%-16s %-14s %-10s %s%n", "pipeline", "last partition", "freshness", "failed or stopped partitions");
        for (PipelineLine l : lines) {
            if (l.problem() != null) {
                out.printf(Locale.ROOT, "%-16s %s%n", l.pipeline(), l.problem());
                continue;
            }
            out.printf(Locale.ROOT, "%-16s %-14s %-10s %s%n", l.pipeline(), l.lastPartition() == null ? "-" : l.lastPartition(),
                    l.freshness() == null ? "-" : l.freshness(), l.failed().isEmpty() ? "none" : String.join(", ", l.failed()));
        }
        out.println("freshness: the worst of the pipeline's datasets (- when none declares an update interval and SLA);"
                + " sluice status <pipeline> shows each");
        return ExitCodes.OK;
    }

    private PipelineLine line(String name) {
        PipelineSpec spec;
        try {
            spec = ctx.loadForInspection(name);
        } catch (SluiceException e) {
            return new PipelineLine(name, null, null, List.of(), "cannot be read: " + e.getMessage().lines().findFirst().orElse("")
                    + " (sluice validate " + name + ")");
        }
        String worst = spec.datasets().isEmpty() ? null : "never";
        if (!SluiceContext.warehouseExists(spec)) {
            return new PipelineLine(name, null, worst, List.of(), null); // nothing has run: not created by looking
        }
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            String last = new RunRepository(w.dsl()).lastCompletedPartition(spec.name());
            List<DatasetFreshness> datasets = new FreshnessMonitor(w.dsl(), Clock.systemUTC()).status(spec);
            var state = datasets.stream().map(DatasetFreshness::state)
                    .max(Comparator.comparingInt(FreshnessState::severity));
            return new PipelineLine(name, last, state.map(x -> x.name().toLowerCase(Locale.ROOT)).orElse(null), failed(w, spec.name()), null);
        } catch (SluiceException | DataAccessException e) {
            return new PipelineLine(name, null, null, List.of(), "its warehouse cannot be read: " + e.getMessage().lines().findFirst().orElse(""));
        }
    }


    private static String human(Duration d) {
        long h = d.toHours();
        return h >= 48 ? (h / 24) + "d " + (h % 24) + "h" : h + "h " + d.toMinutesPart() + "m";
    }
}
