package dev.sluice.app.cli;

import dev.sluice.app.schedule.PipelineScheduler;
import dev.sluice.app.serve.CatalogApi;
import dev.sluice.app.serve.LineageServer;
import dev.sluice.app.serve.WarehouseMetrics;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.SpecValidationException;
import dev.sluice.core.BadInputException;
import dev.sluice.lineage.store.LineageRepository;
import dev.sluice.warehouse.Warehouse;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code sluice scheduler [--pipeline P]...}: the long-lived scheduler of every pipeline with a
 * {@code schedule:} (or the ones named), on their shared warehouse; several processes on one
 * database form a cluster. Stops gracefully on SIGTERM/SIGINT (running loads finish).
 */
@Command(name = "scheduler", mixinStandardHelpOptions = true,
        description = {"Run scheduled loads (Quartz, clustered on the warehouse database) until stopped.",
                "Several scheduler processes on one database share the work; each fire runs once."})
final class SchedulerCommand implements Callable<Integer> {

    private final SluiceContext ctx;

    @Option(names = "--strict", description = "design-rule warnings refuse it too (also SLUICE_STRICT=true)")
    boolean strict;

    @Option(names = "--serve-port", paramLabel = "N", description = "also serve the page, the catalog API and /actuator/prometheus"
            + " on this port (0: a free one), bound to SLUICE_BIND_ADDRESS (default 127.0.0.1), SLUICE_API_TOKEN as with sluice serve")
    Integer servePort;

    @Option(names = "--pipeline", paramLabel = "P", description = "a pipeline to schedule (repeatable; default: every spec with a schedule)")
    List<String> pipelines;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "${env:SLUICE_SCHEDULER_THREADS:-4}",
            description = "pipelines that may run at once (default ${DEFAULT-VALUE})")
    int threads;

    @Option(names = "--misfire-threshold-ms", paramLabel = "MS", defaultValue = "${env:SLUICE_SCHEDULER_MISFIRE_MS:-60000}",
            description = "how late a fire may start before it counts as missed (default ${DEFAULT-VALUE} ms)")
    long misfireMs;

    @Option(names = "--checkin-ms", paramLabel = "MS", defaultValue = "${env:SLUICE_SCHEDULER_CHECKIN_MS:-5000}",
            description = "cluster check-in interval (default ${DEFAULT-VALUE} ms)")
    long checkinMs;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec command;

    private LineageServer server;

    SchedulerCommand(SluiceContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        if (threads < 1 || misfireMs < 0 || checkinMs < 100) {
            throw new BadInputException("--threads/--misfire-threshold-ms/--checkin-ms", -1, null,
                    "threads must be at least 1, the misfire threshold not negative, the check-in at least 100 ms");
        }
        Map<String, PipelineSpec> specs = specs();
        String url = specs.values().iterator().next().warehouse().url();
        for (PipelineSpec s : specs.values()) {
            if (!s.warehouse().url().equals(url)) {
                throw new BadInputException(s.file().toString(), -1, "warehouse.url", "the scheduled pipelines must share one"
                        + " warehouse (its database holds the scheduler's state); " + s.name() + " uses another than "
                        + specs.keySet().iterator().next());
            }
        }
        PrintWriter out = command.commandLine().getOut();
        PipelineSpec first = specs.values().iterator().next();
        Warehouse warehouse = Warehouse.open(first.warehouse(), threads + 8);
        Map<String, String> files = new LinkedHashMap<>();
        specs.forEach((name, s) -> files.put(name, s.file().toString()));
        // each fire reads its spec file again: an edited spec takes effect at the next fire
        PipelineScheduler scheduler = new PipelineScheduler(warehouse, ctx.home(), name -> ctx.loadToRun(files.get(name), strict, command.commandLine().getErr()),
                new PipelineScheduler.Settings(threads, misfireMs, checkinMs));
        CountDownLatch stopped = new CountDownLatch(1);
        // SIGTERM and SIGINT stop the scheduler from this thread, before the JVM shuts down: with a
        // shutdown hook instead, H2's own hook would close the database under the running load
        GracefulStop.install(stopped::countDown);
        try {
            for (PipelineSpec s : specs.values()) {
                PipelineScheduler.Registered r = scheduler.schedule(s);
                out.printf(Locale.ROOT, "  %-20s cron '%s' %s, tier %s, next fire %s%s%s%n", r.pipeline(), r.cron(), r.zone(),
                        r.tier() == 0 ? "-" : Integer.toString(r.tier()), r.nextFire() == null ? "-" : r.nextFire(),
                        r.kept() ? " (trigger kept)" : "", r.after().isEmpty() ? "" : "; after " + String.join(", ", r.after()) + " publish");
            }
            scheduler.start();
            out.println("sluice scheduler " + scheduler.instanceId() + ": running " + specs.size() + " pipeline(s); stop with SIGTERM");
            if (servePort != null) {
                String bind = Objects.requireNonNullElse(ctx.env().apply("SLUICE_BIND_ADDRESS"), "127.0.0.1");
                Clock clock = Clock.systemUTC();
                try {
                    server = new LineageServer(new InetSocketAddress(bind, servePort),
                            new LineageRepository(warehouse.dsl()), ctx.env().apply("SLUICE_API_TOKEN"),
                            new CatalogApi(warehouse.dsl(), first, clock),
                            new WarehouseMetrics(warehouse.dsl(), first, clock, scheduler.lineage()));
                } catch (IOException e) {
                    throw new BadInputException(bind + ":" + servePort, -1, null, "cannot listen there: " + e.getMessage());
                }
                out.println("sluice scheduler: serving http://" + bind + ":" + server.port() + "/ (page, /api/v1, /actuator/prometheus)");
            }
            out.flush();
            stopped.await();
            out.println("sluice scheduler " + scheduler.instanceId() + ": stopping; running loads end their chunk and are"
                    + " recorded STOPPED (the next fire of their partition resumes them)");
            out.flush();
        } finally {
            if (server != null) {
                server.close();
            }
            scheduler.close();
            warehouse.close();
        }
        out.println("sluice scheduler: stopped");
        return ExitCodes.OK;
    }

    /** The named pipelines, or every spec in the pipelines folder with a schedule; each loaded and checked. */
    private Map<String, PipelineSpec> specs() throws IOException {
        Map<String, PipelineSpec> out = new LinkedHashMap<>();
        if (pipelines != null && !pipelines.isEmpty()) {
            for (String p : pipelines) {
                PipelineSpec s = ctx.loadToRun(p, strict, command.commandLine().getErr());
                if (s.schedule() == null) {
                    throw new BadInputException(s.file().toString(), -1, null, "pipeline " + s.name() + " has no schedule (add a schedule: section)");
                }
                out.put(s.name(), s);
            }
            return out;
        }
        List<Path> files = new ArrayList<>();
        Path dir = ctx.pipelinesDir();
        if (Files.isDirectory(dir)) {
            try (Stream<Path> list = Files.list(dir)) {
                list.filter(f -> f.toString().endsWith(".yaml") || f.toString().endsWith(".yml")).sorted().forEach(files::add);
            }
        }
        PrintWriter err = command.commandLine().getErr();
        for (Path f : files) {
            PipelineSpec s;
            try {
                s = ctx.loadToRun(f.toString(), strict, err);
            } catch (SpecValidationException | BadInputException e) {
                // one broken spec (or one breaking a design rule) does not stop the others: it is named, and left out
                err.println("sluice scheduler: leaving out " + f + ": " + e.getMessage());
                continue;
            }
            if (s.schedule() != null) {
                out.put(s.name(), s);
            }
        }
        if (out.isEmpty()) {
            throw new BadInputException(dir.toString(), -1, null, "no valid pipeline spec there has a schedule (add a schedule: section,"
                    + " or name pipelines with --pipeline)");
        }
        return out;
    }
}
