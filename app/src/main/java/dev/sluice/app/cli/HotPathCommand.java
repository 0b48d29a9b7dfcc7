package dev.sluice.app.cli;

import dev.sluice.config.PipelineSpec;
import dev.sluice.core.BadInputException;
import dev.sluice.hotpath.LiveConsumer;
import dev.sluice.warehouse.Warehouse;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code sluice hot-path <pipeline> [--consumers N]}: runs N members of the pipeline's consumer group,
 * one thread each ({@link LiveConsumer}), until SIGTERM/SIGINT; each then finishes its batch in
 * flight and leaves the group.
 */
@Command(name = "hot-path", mixinStandardHelpOptions = true,
        description = {"Consume the pipeline's hot-path topic: events, windows and offsets in one transaction per poll (effectively once).",
                "Runs until SIGTERM/SIGINT; poison goes to the dead-letter topic and the quarantine."})
final class HotPathCommand implements Callable<Integer> {

    private final SluiceContext ctx;

    @Parameters(index = "0", paramLabel = "PIPELINE", description = "a pipeline with a hot_path")
    String pipeline;

    @Option(names = "--consumers", defaultValue = "1", paramLabel = "N", description = "consumers in this process (default ${DEFAULT-VALUE})")
    int consumers;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec command;

    HotPathCommand(SluiceContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws InterruptedException {
        if (consumers < 1) {
            throw new BadInputException("--consumers", -1, null, "must be at least 1");
        }
        PipelineSpec spec = ctx.load(pipeline);
        if (spec.hotPath() == null) {
            throw new BadInputException(spec.file().toString(), -1, "hot_path", "pipeline " + spec.name() + " declares no hot path");
        }
        PrintWriter out = command.commandLine().getOut();
        CountDownLatch stop = new CountDownLatch(1);
        GracefulStop.install(stop::countDown);
        try (Warehouse w = Warehouse.open(spec.warehouse(), consumers + 2)) {
            List<LiveConsumer> members = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            AtomicReference<RuntimeException> failed = new AtomicReference<>();
            for (int i = 0; i < consumers; i++) {
                LiveConsumer c = LiveConsumer.of(spec, w, Map.of(), LiveConsumer.Hooks.NONE);
                members.add(c);
                Thread t = new Thread(() -> {
                    try {
                        c.run();
                    } catch (RuntimeException e) {
                        failed.compareAndSet(null, e); // reported by the command, not as an uncaught stack trace
                    } finally {
                        stop.countDown(); // a consumer that ends by itself (an error) stops the others
                    }
                }, "hot-path-" + spec.name() + "-" + i);
                threads.add(t);
                t.start();
            }
            out.printf(Locale.ROOT, "sluice hot-path %s: %d consumer(s) of %s as group %s into %s; stop with SIGTERM%n", spec.name(), consumers,
                    spec.hotPath().topic(), spec.hotPath().groupId(), spec.hotPath().sink());
            out.flush();
            stop.await();
            members.forEach(LiveConsumer::close);
            for (Thread t : threads) {
                t.join();
            }
            out.printf(Locale.ROOT, "sluice hot-path %s: stopped; %,d event(s) written by this process%n", spec.name(),
                    members.stream().mapToLong(LiveConsumer::applied).sum());
            if (failed.get() != null) {
                throw failed.get(); // a SluiceException: one line and exit 1 (the batches written before stay, once)
            }
            return ExitCodes.OK;
        }
    }
}
