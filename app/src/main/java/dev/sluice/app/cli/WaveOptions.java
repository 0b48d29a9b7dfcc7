package dev.sluice.app.cli;

import dev.sluice.batch.backfill.Backfill;
import dev.sluice.core.BadInputException;
import picocli.CommandLine.Option;

/**
 * {@code --parallelism} and {@code --gate-batch}: how a backfill (and the quickstart, which loads
 * its days as one) runs its partitions. A picocli mixin; not thread-safe (set once by picocli).
 */
final class WaveOptions {

    @Option(names = "--parallelism", paramLabel = "N", defaultValue = "${env:SLUICE_BACKFILL_PARALLELISM:-2}",
            description = "partitions working at once (default ${DEFAULT-VALUE}; env SLUICE_BACKFILL_PARALLELISM)")
    int parallelism;

    @Option(names = "--gate-batch", paramLabel = "W", defaultValue = "${env:SLUICE_BACKFILL_GATE_BATCH:-64}",
            description = "partitions per wave whose quality gates are judged in one Spark pass (default ${DEFAULT-VALUE};"
                    + " 1 judges each alone; env SLUICE_BACKFILL_GATE_BATCH)")
    int gateBatch;

    /**
     * The backfill's options, asked by {@code requester}.
     *
     * @throws BadInputException when either value is below 1 (exit 2, naming the option)
     */
    Backfill.Options options(String requester) {
        if (parallelism < 1 || gateBatch < 1) {
            throw new BadInputException(parallelism < 1 ? "--parallelism" : "--gate-batch", -1, null, "must be at least 1");
        }
        return new Backfill.Options(parallelism, gateBatch, requester);
    }

    /** Connections a warehouse pool needs for {@code parallelism} partitions at once (at least {@code minimum}). */
    int poolSize(int minimum) {
        return Math.max(minimum, parallelism + 4);
    }
}
