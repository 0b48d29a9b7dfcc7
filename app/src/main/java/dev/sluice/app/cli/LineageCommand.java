package dev.sluice.app.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.batch.lineage.LineageRepository;
import dev.sluice.batch.lineage.LineageRepository.Edge;
import dev.sluice.batch.warehouse.Warehouse;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.BadInputException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sluice lineage upstream|downstream|runs}: questions data owners ask, answered from the
 * lineage store (every run, not only the latest).
 */
@Command(name = "lineage", mixinStandardHelpOptions = true, description = "Lineage from the events of every run.",
        subcommands = {LineageCommand.Upstream.class, LineageCommand.Downstream.class, LineageCommand.Runs.class,
                LineageCommand.Columns.class, LineageCommand.Impact.class})
final class LineageCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec command;

    @Override
    public void run() {
        command.commandLine().usage(command.commandLine().getOut());
    }

    /** A Graphviz ID string's content: backslash and double quote escaped. */
    static String dot(String text) {
        return text.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    /** Options of the graph queries. */
    abstract static class Graph implements Callable<Integer> {
        private final SluiceContext ctx;

        @Parameters(index = "0", paramLabel = "DATASET", description = "schema.table, or a landing name such as landing/flights")
        String dataset;

        @Option(names = "--pipeline", defaultValue = "flights", description = "whose warehouse holds the lineage (default: ${DEFAULT-VALUE})")
        String pipeline;

        @Option(names = "--depth", defaultValue = "10", description = "levels to follow (default: ${DEFAULT-VALUE})")
        int depth;

        @Option(names = "--format", defaultValue = "table", description = "table, json or dot (Graphviz) (default: ${DEFAULT-VALUE})")
        String format;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec command;

        Graph(SluiceContext ctx) {
            this.ctx = ctx;
        }

        abstract List<Edge> edges(LineageRepository repo);

        abstract String direction();

        @Override
        public Integer call() throws Exception {
            if (!List.of("table", "json", "dot").contains(format)) {
                throw new BadInputException("--format", -1, null, "'" + format + "' is not table, json or dot");
            }
            if (depth < 1) {
                throw new BadInputException("--depth", -1, null, "at least 1");
            }
            PipelineSpec spec = ctx.loadForInspection(pipeline);
            PrintWriter out = command.commandLine().getOut();
            try (Warehouse w = Warehouse.open(spec.warehouse())) {
                List<Edge> edges = edges(new LineageRepository(w.dsl()));
                switch (format) {
                    case "json" -> out.println(new ObjectMapper().writeValueAsString(edges));
                    case "dot" -> {
                        out.println("digraph lineage {");
                        out.println("  rankdir=LR;");
                        edges.forEach(e -> out.printf(Locale.ROOT, "  \"%s\" -> \"%s\" [label=\"%s\"];%n", dot(e.from()), dot(e.to()),
                                dot(e.job())));
                        out.println("}");
                    }
                    default -> {
                        if (edges.isEmpty()) {
                            out.println(dataset + ": nothing " + direction() + " recorded"
                                    + (new LineageRepository(w.dsl()).known(dataset) ? "" : " (no recorded run reads or writes a dataset of this name)"));
                            return ExitCodes.OK;
                        }
                        out.printf(Locale.ROOT, "%-36s %-36s %s%n", "from", "to", "job");
                        edges.forEach(e -> out.printf(Locale.ROOT, "%-36s %-36s %s%n", e.from(), e.to(), e.job()));
                    }
                }
            }
            return ExitCodes.OK;
        }
    }

    /** What a dataset is built from. */
    @Command(name = "upstream", mixinStandardHelpOptions = true, description = "The datasets a dataset is built from.")
    static final class Upstream extends Graph {
        Upstream(SluiceContext ctx) {
            super(ctx);
        }

        @Override
        List<Edge> edges(LineageRepository repo) {
            return repo.upstream(dataset, depth);
        }

        @Override
        String direction() {
            return "upstream";
        }
    }

    /** What is built from a dataset. */
    @Command(name = "downstream", mixinStandardHelpOptions = true, description = "The datasets built from a dataset.")
    static final class Downstream extends Graph {
        Downstream(SluiceContext ctx) {
            super(ctx);
        }

        @Override
        List<Edge> edges(LineageRepository repo) {
            return repo.downstream(dataset, depth);
        }

        @Override
        String direction() {
            return "downstream";
        }
    }

    /** Which runs wrote a dataset (and which partition version, from what). */
    @Command(name = "runs", mixinStandardHelpOptions = true, description = "The step runs that wrote a dataset, newest first.")
    static final class Runs implements Callable<Integer> {
        private final SluiceContext ctx;

        @Parameters(index = "0", paramLabel = "DATASET")
        String dataset;

        @Option(names = "--pipeline", defaultValue = "flights")
        String pipeline;

        @Option(names = "--partition", paramLabel = "YYYY-MM-DD")
        String partition;

        @Option(names = "--format", defaultValue = "table", description = "table or json (default: ${DEFAULT-VALUE})")
        String format;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec command;

        Runs(SluiceContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public Integer call() {
            PipelineSpec spec = ctx.loadForInspection(pipeline);
            PrintWriter out = command.commandLine().getOut();
            try (Warehouse w = Warehouse.open(spec.warehouse())) {
                var r = new LineageRepository(w.dsl()).runs(dataset, partition);
                out.println(format.equals("json") ? r.formatJSON(new org.jooq.JSONFormat().header(false)
                        .recordFormat(org.jooq.JSONFormat.RecordFormat.OBJECT)) : r.isEmpty() ? dataset + ": no runs recorded" : r.format(200));
            }
            return ExitCodes.OK;
        }
    }

    /** Where a column comes from, back to the landed files. */
    @Command(name = "columns", mixinStandardHelpOptions = true, description = "Where a column comes from: schema.table.column.")
    static final class Columns implements Callable<Integer> {
        private final SluiceContext ctx;

        @Parameters(index = "0", paramLabel = "DATASET.COLUMN", description = "e.g. gold.airport_daily_delays.avg_delay_min")
        String target;

        @Option(names = "--pipeline", defaultValue = "flights")
        String pipeline;

        @Option(names = "--format", defaultValue = "table", description = "table or json (default: ${DEFAULT-VALUE})")
        String format;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec command;

        Columns(SluiceContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public Integer call() throws Exception {
            int dot = target.lastIndexOf('.');
            if (dot <= 0 || dot == target.length() - 1) {
                throw new BadInputException("DATASET.COLUMN", -1, null, "'" + target + "' is not dataset.column (e.g. gold.t.c)");
            }
            PipelineSpec spec = ctx.loadForInspection(pipeline);
            PrintWriter out = command.commandLine().getOut();
            try (Warehouse w = Warehouse.open(spec.warehouse())) {
                var edges = new LineageRepository(w.dsl()).columnOrigins(target.substring(0, dot), target.substring(dot + 1));
                if (format.equals("json")) {
                    out.println(new ObjectMapper().writeValueAsString(edges));
                } else if (edges.isEmpty()) {
                    out.println(target + ": no column lineage recorded");
                } else {
                    out.printf(Locale.ROOT, "%-44s %-44s %s%n", "from", "to", "how");
                    edges.forEach(e -> out.printf(Locale.ROOT, "%-44s %-44s %s%n", e.from(), e.to(),
                            e.subtype().toLowerCase(Locale.ROOT) + (e.masking() ? ", masked (PII)" : "")));
                }
            }
            return ExitCodes.OK;
        }
    }

    /** What a re-load of one partition makes stale downstream. */
    @Command(name = "impact", mixinStandardHelpOptions = true,
            description = "Every downstream dataset partition built from a dataset partition (none: a reference snapshot).")
    static final class Impact implements Callable<Integer> {
        private final SluiceContext ctx;

        @Parameters(index = "0", paramLabel = "DATASET")
        String dataset;

        @Option(names = "--partition", required = true, paramLabel = "YYYY-MM-DD|none")
        String partition;

        @Option(names = "--pipeline", defaultValue = "flights")
        String pipeline;

        @Option(names = "--format", defaultValue = "table", description = "table or json (default: ${DEFAULT-VALUE})")
        String format;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec command;

        Impact(SluiceContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public Integer call() throws Exception {
            if (!partition.equals("none")) {
                try {
                    dev.sluice.core.Partition.parseDaily(partition);
                } catch (dev.sluice.core.SluiceException e) {
                    throw new BadInputException("--partition", -1, null, e.getMessage() + " (or none for a reference snapshot)");
                }
            }
            PipelineSpec spec = ctx.loadForInspection(pipeline);
            PrintWriter out = command.commandLine().getOut();
            try (Warehouse w = Warehouse.open(spec.warehouse())) {
                var impacted = new LineageRepository(w.dsl()).impact(dataset, partition);
                if (format.equals("json")) {
                    out.println(new ObjectMapper().writeValueAsString(impacted));
                } else if (impacted.isEmpty()) {
                    out.println(dataset + " " + partition + ": nothing downstream recorded");
                } else {
                    out.printf(Locale.ROOT, "%-36s %-12s %-6s %s%n", "dataset", "partition", "level", "pipeline");
                    impacted.forEach(i -> out.printf(Locale.ROOT, "%-36s %-12s %-6d %s%n", i.dataset(), i.partition(), i.level(), i.job()));
                }
            }
            return ExitCodes.OK;
        }
    }
}
