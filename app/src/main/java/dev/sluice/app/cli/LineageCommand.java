package dev.sluice.app.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.config.ColumnSpec;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.BadInputException;
import dev.sluice.core.Partition;
import dev.sluice.core.SluiceException;
import dev.sluice.lineage.store.LineageRepository.Edge;
import dev.sluice.lineage.store.LineageRepository;
import dev.sluice.operations.docs.LandingNames;
import dev.sluice.warehouse.Warehouse;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import org.jooq.JSONFormat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code sluice lineage upstream|downstream|runs|columns|impact}: questions data owners ask, answered
 * from the lineage store (every run, not only the latest). A dataset neither recorded nor declared
 * by the pipeline is a mistake (exit 2, naming the nearest known names), not "nothing recorded".
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

    /**
     * The datasets a lineage query may name: those any recorded run read or wrote (of any pipeline or
     * tool sharing the warehouse), and those the pipeline declares (its tables, landing locations and
     * hot-path tables) though nothing has run yet; with the declared columns of each.
     *
     * @param datasets every known dataset name, sorted
     * @param columns the declared column names of the pipeline's datasets, in declaration order
     */
    record Known(SortedSet<String> datasets, Map<String, List<String>> columns) {

        static Known of(LineageRepository repo, PipelineSpec spec, Path home) {
            SortedSet<String> names = new TreeSet<>(repo.datasets("", Integer.MAX_VALUE));
            Map<String, List<String>> columns = new HashMap<>();
            for (var t : spec.tables()) {
                columns.put(t.table().qualifiedName(), t.columns().stream().map(ColumnSpec::name).toList());
            }
            var landing = new LandingNames(home);
            for (var src : spec.sources()) {
                columns.put(landing.dataset(src), src.contract().columns().stream().map(ColumnSpec::name).toList());
            }
            names.addAll(columns.keySet());
            if (spec.hotPath() != null) {
                names.add(spec.hotPath().sink().qualifiedName());
                spec.hotPath().windows().forEach(win -> names.add(win.table().qualifiedName()));
            }
            return new Known(names, columns);
        }

        /**
         * @throws BadInputException (exit 2) when {@code dataset} is not known, naming the nearest
         *     known names (or all of them when none is near)
         */
        void require(String argument, String dataset, String pipeline) {
            if (!datasets.contains(dataset)) {
                throw new BadInputException(argument, -1, null, "no dataset '" + dataset + "' is declared by pipeline " + pipeline
                        + " or recorded in the lineage of its warehouse" + NearestNames.suggestion(dataset, datasets));
            }
        }
    }

    /**
     * What every lineage query shares: {@code --pipeline} (whose warehouse holds the lineage),
     * {@code --format}, the checked arguments, and the warehouse opened for the answer.
     */
    abstract static class Query implements Callable<Integer> {
        private final SluiceContext ctx;

        @Option(names = "--pipeline", defaultValue = "flights", description = "whose warehouse holds the lineage (default: ${DEFAULT-VALUE})")
        String pipeline;

        @Option(names = "--format", defaultValue = "table", description = "table or json (graphs also dot, for Graphviz) (default: ${DEFAULT-VALUE})")
        String format;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec command;

        Query(SluiceContext ctx) {
            this.ctx = ctx;
        }

        /** The formats this query answers in. */
        List<String> formats() {
            return List.of("table", "json");
        }

        /**
         * Checks the arguments before anything is opened.
         *
         * @throws BadInputException naming the argument
         */
        void check() {
        }

        /**
         * Checks the named dataset against what is known, before the answer.
         *
         * @throws BadInputException naming the nearest known names
         */
        abstract void checkKnown(Known known);

        /** Prints the answer in {@link #format}. */
        abstract void answer(LineageRepository repo, PrintWriter out) throws Exception;

        @Override
        public Integer call() throws Exception {
            if (!formats().contains(format)) {
                throw new BadInputException("--format", -1, null, "'" + format + "' is not one of " + String.join(", ", formats()));
            }
            check();
            PipelineSpec spec = ctx.loadForInspection(pipeline);
            try (Warehouse w = Warehouse.open(spec.warehouse())) {
                LineageRepository repo = new LineageRepository(w.dsl());
                checkKnown(Known.of(repo, spec, ctx.home()));
                answer(repo, command.commandLine().getOut());
            }
            return ExitCodes.OK;
        }

        /** {@code value} as JSON (Jackson). */
        static String json(Object value) throws Exception {
            return new ObjectMapper().writeValueAsString(value);
        }
    }

    /** The graph queries: edges level by level from a dataset. */
    abstract static class Graph extends Query {

        @Parameters(index = "0", paramLabel = "DATASET", description = "schema.table, or a landing name such as landing/flights")
        String dataset;

        @Option(names = "--depth", defaultValue = "10", description = "levels to follow (default: ${DEFAULT-VALUE})")
        int depth;

        Graph(SluiceContext ctx) {
            super(ctx);
        }

        abstract List<Edge> edges(LineageRepository repo);

        abstract String direction();

        @Override
        List<String> formats() {
            return List.of("table", "json", "dot");
        }

        @Override
        void check() {
            if (depth < 1) {
                throw new BadInputException("--depth", -1, null, "at least 1");
            }
        }

        @Override
        void checkKnown(Known known) {
            known.require("DATASET", dataset, pipeline);
        }

        @Override
        void answer(LineageRepository repo, PrintWriter out) throws Exception {
            List<Edge> edges = edges(repo);
            switch (format) {
                case "json" -> out.println(json(edges));
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
                                + (repo.known(dataset) ? "" : " (declared, but no recorded run reads or writes it yet)"));
                        return;
                    }
                    out.printf(Locale.ROOT, "%-36s %-36s %s%n", "from", "to", "job");
                    edges.forEach(e -> out.printf(Locale.ROOT, "%-36s %-36s %s%n", e.from(), e.to(), e.job()));
                }
            }
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

    /**
     * Which runs wrote a dataset (and which partition version, from what), with each run's state,
     * nominal time and error message: Sluice's step runs and the runs of other tools that wrote it
     * or failed writing it ({@link LineageRepository#runs}).
     */
    @Command(name = "runs", mixinStandardHelpOptions = true,
            description = "The runs that wrote a dataset (or failed to), newest first: state, nominal time, error message.")
    static final class Runs extends Query {

        @Parameters(index = "0", paramLabel = "DATASET", description = "schema.table, or a landing name such as landing/flights")
        String dataset;

        @Option(names = "--partition", paramLabel = "YYYY-MM-DD", description = "only the runs that wrote this partition")
        String partition;

        Runs(SluiceContext ctx) {
            super(ctx);
        }

        @Override
        void checkKnown(Known known) {
            known.require("DATASET", dataset, pipeline);
        }

        @Override
        void answer(LineageRepository repo, PrintWriter out) {
            var r = repo.runs(dataset, partition);
            out.println(format.equals("json") ? r.formatJSON(new JSONFormat().header(false)
                    .recordFormat(JSONFormat.RecordFormat.OBJECT)) : r.isEmpty() ? dataset + ": no runs recorded" : r.format(200));
        }
    }

    /** Where a column comes from, back to the landed files. */
    @Command(name = "columns", mixinStandardHelpOptions = true, description = "Where a column comes from: schema.table.column.")
    static final class Columns extends Query {

        @Parameters(index = "0", paramLabel = "DATASET.COLUMN", description = "e.g. gold.airport_daily_delays.avg_delay_min")
        String target;

        Columns(SluiceContext ctx) {
            super(ctx);
        }

        @Override
        void check() {
            int dot = target.lastIndexOf('.');
            if (dot <= 0 || dot == target.length() - 1) {
                throw new BadInputException("DATASET.COLUMN", -1, null, "'" + target + "' is not of the form schema.table.column"
                        + " (e.g. gold.airport_daily_delays.avg_delay_min)");
            }
        }

        @Override
        void checkKnown(Known known) {
            List<String> own = known.columns().get(target);
            if (known.datasets().contains(target)) {
                throw new BadInputException("DATASET.COLUMN", -1, null, "'" + target + "' is a dataset: lineage columns takes one of its"
                        + " columns, of the form schema.table.column" + (own == null || own.isEmpty() ? ""
                                : ", e.g. " + target + "." + own.get(0) + " (its columns: " + String.join(", ", own) + ")"));
            }
            int dot = target.lastIndexOf('.');
            String dataset = target.substring(0, dot);
            String column = target.substring(dot + 1);
            known.require("DATASET.COLUMN", dataset, pipeline);
            List<String> columns = known.columns().get(dataset);
            if (columns != null && !columns.contains(column)) {
                throw new BadInputException("DATASET.COLUMN", -1, null, dataset + " has no column '" + column + "'"
                        + NearestNames.suggestion(column, columns));
            }
        }

        @Override
        void answer(LineageRepository repo, PrintWriter out) throws Exception {
            int dot = target.lastIndexOf('.');
            var edges = repo.columnOrigins(target.substring(0, dot), target.substring(dot + 1));
            if (format.equals("json")) {
                out.println(json(edges));
            } else if (edges.isEmpty()) {
                out.println(target + ": no column lineage recorded");
            } else {
                out.printf(Locale.ROOT, "%-44s %-44s %s%n", "from", "to", "how");
                edges.forEach(e -> out.printf(Locale.ROOT, "%-44s %-44s %s%n", e.from(), e.to(), how(e)));
            }
        }
    }

    /**
     * How a column is built from another, in words: {@code indirect } for an INDIRECT transformation
     * (it decides which rows, not the value), the subtype ({@code -} when none is given), {@code ,
     * masked (PII)} when masking, and {@code : description} when one is given; e.g.
     * {@code aggregation: sum(amount)}, {@code identity, masked (PII)}.
     */
    static String how(LineageRepository.ColumnEdge e) {
        return ("INDIRECT".equals(e.type()) ? "indirect " : "") + (e.subtype() == null ? "-" : e.subtype().toLowerCase(Locale.ROOT))
                + (e.masking() ? ", masked (PII)" : "") + (e.description() == null ? "" : ": " + e.description());
    }

    /** What a re-load of one partition makes stale downstream. */
    @Command(name = "impact", mixinStandardHelpOptions = true,
            description = "Every downstream dataset partition built from a dataset partition (none: a reference snapshot).")
    static final class Impact extends Query {

        @Parameters(index = "0", paramLabel = "DATASET", description = "schema.table, or a landing name such as landing/flights")
        String dataset;

        @Option(names = "--partition", required = true, paramLabel = "YYYY-MM-DD|none",
                description = "the partition re-loaded (none: a reference snapshot, any of its versions)")
        String partition;

        Impact(SluiceContext ctx) {
            super(ctx);
        }

        @Override
        void checkKnown(Known known) {
            known.require("DATASET", dataset, pipeline);
        }

        @Override
        void check() {
            if (!partition.equals("none")) {
                try {
                    Partition.parseAny(partition);
                } catch (SluiceException e) {
                    throw new BadInputException("--partition", -1, null, e.getMessage() + " (or none for a reference snapshot)");
                }
            }
        }

        @Override
        void answer(LineageRepository repo, PrintWriter out) throws Exception {
            var impacted = repo.impact(dataset, partition);
            if (format.equals("json")) {
                out.println(json(impacted));
            } else if (impacted.isEmpty()) {
                out.println(dataset + " " + partition + ": nothing downstream recorded");
            } else {
                out.printf(Locale.ROOT, "%-36s %-12s %-6s %s%n", "dataset", "partition", "level", "pipeline");
                impacted.forEach(i -> out.printf(Locale.ROOT, "%-36s %-12s %-6d %s%n", i.dataset(), i.partition(), i.level(), i.job()));
            }
        }
    }
}
