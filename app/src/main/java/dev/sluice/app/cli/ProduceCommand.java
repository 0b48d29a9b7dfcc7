package dev.sluice.app.cli;

import dev.sluice.app.live.LandedEvents;
import dev.sluice.config.HotPathSpec;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.SourceSpec;
import dev.sluice.core.BadInputException;
import dev.sluice.core.Partition;
import dev.sluice.core.SluiceException;
import dev.sluice.hotpath.LivePublisher;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code sluice produce <pipeline> [--partition D] [--rate N] [--shuffle-within S] [--seed X]}:
 * publishes landed rows of the pipeline's hot-path source as events to its topic
 * ({@link LandedEvents}: key = content hash + occurrence index, event time = the event-time column
 * read as UTC), at most N per second (0: as fast as the broker takes them), out of order within S.
 * With {@code --partition} one landed partition; without, every landed row of a source read from
 * whole files (a feed file with a partition column, e.g. earthquakes, or an unpartitioned file). A
 * source landing one directory per partition (e.g. flights) needs {@code --partition}: without it
 * the command fails with a {@link BadInputException} (exit 2) naming the source's path.
 */
@Command(name = "produce", mixinStandardHelpOptions = true,
        description = {"Publish landed rows as events to the pipeline's hot-path topic (real data for the hot path).",
                "Key = content hash + occurrence index (exact duplicates stay distinct events); event time = the event-time column as UTC.",
                "Without --partition: every landed row of a source read from whole files (e.g. the earthquakes feed, every day);"
                        + " a source landing one directory per partition (e.g. flights) is refused: name a partition."})
final class ProduceCommand implements Callable<Integer> {

    private final SluiceContext ctx;

    @Parameters(index = "0", paramLabel = "PIPELINE", description = "a pipeline with a hot_path (e.g. flights)")
    String pipeline;

    @Option(names = "--partition", paramLabel = "D",
            description = "the landed partition to publish, e.g. 2001-01-02 (default: every landed row; required for a source"
                    + " landing one directory per partition)")
    @Nullable String partition;

    @Option(names = "--rate", defaultValue = "0", paramLabel = "N", description = "events per second at most (default 0: no limit)")
    long rate;

    @Option(names = "--shuffle-within", defaultValue = "PT0S", paramLabel = "S",
            description = "send out of event-time order, never by more than S (ISO-8601, e.g. PT5M; default in order)")
    String shuffleWithin;

    @Option(names = "--seed", defaultValue = "1", description = "seed of the shuffle (default ${DEFAULT-VALUE})")
    long seed;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec command;

    ProduceCommand(SluiceContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        if (rate < 0) {
            throw new BadInputException("--rate", -1, null, "must not be negative");
        }
        Duration shuffle = shuffleBound();
        PipelineSpec spec = ctx.load(pipeline);
        HotPathSpec hot = spec.hotPath();
        if (hot == null) {
            throw new BadInputException(spec.file().toString(), -1, "hot_path", "pipeline " + spec.name() + " declares no hot path");
        }
        SourceSpec source = spec.source(hot.source()).orElseThrow();
        Partition p = partition == null ? null : partition(spec, partition);
        LandedEvents.Result events = p == null
                ? LandedEvents.all(source, hot.eventTime(), shuffle, seed, ctx.home(), spec.maxLineBytes())
                : LandedEvents.of(source, p, hot.eventTime(), shuffle, seed, ctx.home(), spec.maxLineBytes());
        long started = System.nanoTime();
        publish(hot, events.events(), started);
        double seconds = (System.nanoTime() - started) / 1e9;
        PrintWriter out = command.commandLine().getOut();
        out.printf(Locale.ROOT, "published %,d event(s) of %s %s to %s in %.1f s (%,.0f events/s)%s%s%n", events.events().size(), spec.name(),
                p == null ? "(every landed row)" : p, hot.topic(), seconds, events.events().size() / Math.max(seconds, 1e-9),
                shuffle.isZero() ? "" : ", out of order within " + shuffle,
                events.skipped() == 0 ? "" : "; " + events.skipped() + " row(s) breaking the contract left out, the first: " + events.firstSkipped());
        return ExitCodes.OK;
    }

    private Duration shuffleBound() {
        Duration shuffle;
        try {
            shuffle = Duration.parse(shuffleWithin);
        } catch (DateTimeParseException e) {
            throw new BadInputException("--shuffle-within", -1, null, "'" + shuffleWithin + "' is not an ISO-8601 duration (e.g. PT5M)");
        }
        if (shuffle.isNegative()) {
            throw new BadInputException("--shuffle-within", -1, null, "must not be negative");
        }
        return shuffle;
    }

    private static Partition partition(PipelineSpec spec, String key) {
        try {
            return spec.partitionKind().parse(key);
        } catch (SluiceException e) {
            throw new BadInputException("--partition", -1, null, e.getMessage());
        }
    }

    /** Sends {@code events} in order, paced to {@code --rate} from {@code started} (System.nanoTime), and waits until all are acknowledged. */
    private void publish(HotPathSpec hot, List<LandedEvents.Event> events, long started) {
        try (LivePublisher publisher = LivePublisher.of(hot, Map.of())) {
            long sent = 0;
            for (LandedEvents.Event e : events) {
                if (rate > 0) {
                    long due = started + sent * 1_000_000_000L / rate;
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        LockSupport.parkNanos(wait); // pacing to --rate
                    }
                }
                publisher.publish(e.id(), e.value(), e.eventTimeMs());
                sent++;
            }
            publisher.flush();
        }
    }
}
