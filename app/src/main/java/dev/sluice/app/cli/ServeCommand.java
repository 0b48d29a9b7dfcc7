package dev.sluice.app.cli;

import dev.sluice.app.serve.CatalogApi;
import dev.sluice.app.serve.LineageServer;
import dev.sluice.app.serve.WarehouseMetrics;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.BadInputException;
import dev.sluice.lineage.store.LineageRepository;
import dev.sluice.warehouse.Warehouse;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code sluice serve [--pipeline P] [--port N]}: the long-running server. Binds
 * {@code SLUICE_BIND_ADDRESS} (default 127.0.0.1: loopback only) on {@code --port} (default
 * {@code SLUICE_PORT}, else 5000, Marquez's port); when {@code SLUICE_API_TOKEN} is set, requests
 * must carry it as a bearer token. Runs until the process is stopped (SIGTERM closes it cleanly).
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Serve the page (what is wrong at a glance, search datasets, walk lineage, read runs, checks and backfills in a browser), the read-only"
                + " catalog API (GET /api/v1/status, /datasets?q=, /datasets/{name}, /runs/{id}, /backfills/{id}), the lineage API"
                + " (POST /api/v1/lineage ingests OpenLineage events from other tools) and the metrics (GET /actuator/prometheus).")
final class ServeCommand implements Callable<Integer> {

    private final SluiceContext ctx;

    @Option(names = "--pipeline", defaultValue = "flights", description = "whose warehouse stores the lineage (default: ${DEFAULT-VALUE})")
    String pipeline;

    @Option(names = "--port", description = "TCP port (default: SLUICE_PORT, else 5000; 0 picks a free one)")
    Integer port;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec command;

    ServeCommand(SluiceContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        PipelineSpec spec = ctx.loadForInspection(pipeline);
        String bind = Objects.requireNonNullElse(ctx.env().apply("SLUICE_BIND_ADDRESS"), "127.0.0.1");
        int p = port != null ? port : Integer.parseInt(Objects.requireNonNullElse(ctx.env().apply("SLUICE_PORT"), "5000"));
        if (p < 0 || p > 65535) {
            throw new BadInputException("--port", -1, null, p + " is not a TCP port");
        }
        String token = ctx.env().apply("SLUICE_API_TOKEN");
        Warehouse w = Warehouse.open(spec.warehouse());
        LineageServer server;
        try {
            server = new LineageServer(new InetSocketAddress(bind, p), new LineageRepository(w.dsl()), token,
                    new CatalogApi(w.dsl(), spec, Clock.systemUTC()),
                    new WarehouseMetrics(w.dsl(), spec, Clock.systemUTC()));
        } catch (IOException e) {
            w.close();
            throw new BadInputException(bind + ":" + p, -1, null, "cannot listen there: " + e.getMessage());
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            w.close();
            stopped.countDown();
        }, "sluice-serve-stop"));
        command.commandLine().getOut().println("sluice serve: listening on http://" + bind + ":" + server.port()
                + " (GET /api/v1/status, /api/v1/datasets, /api/v1/datasets/{name}, /api/v1/graph/{name}, /api/v1/runs/{id}, /api/v1/backfills/{id}, /actuator/prometheus; POST /api/v1/lineage" + (token == null || token.isBlank() ? "" : ", bearer token required") + ")");
        command.commandLine().getOut().flush();
        stopped.await();
        return ExitCodes.OK;
    }
}
