package dev.sluice.bench;

import java.util.Arrays;

/**
 * Event-to-sink latencies of a fixed-rate run, summarised: the first {@code warmUpShare} of the
 * samples (in the order they were recorded, i.e. commit order) are the warm-up, reported apart;
 * the percentiles are nearest-rank (the smallest sample with at least q of the samples at or below
 * it). Immutable.
 *
 * @param samples samples after the warm-up
 * @param p50Ms median, ms
 * @param p99Ms 99th percentile, ms
 * @param maxMs largest, ms
 * @param warmUpP99Ms 99th percentile of the warm-up samples, ms (0 when there are none)
 */
record Latencies(int samples, double p50Ms, double p99Ms, double maxMs, double warmUpP99Ms) {

    /**
     * The summary of {@code ms[0..count)}.
     *
     * @param ms latencies in ms, in the order recorded; not changed
     * @param count how many of {@code ms} are samples (at most its length)
     * @param warmUpShare the share of the first samples left out as warm-up, in [0, 1)
     * @throws IllegalArgumentException when no sample is left after the warm-up, or the share is out of range
     */
    static Latencies of(long[] ms, int count, double warmUpShare) {
        if (warmUpShare < 0 || warmUpShare >= 1 || count > ms.length) {
            throw new IllegalArgumentException("warm-up share " + warmUpShare + " or count " + count + " of " + ms.length + " out of range");
        }
        int warmUp = (int) (count * warmUpShare);
        if (count - warmUp < 1) {
            throw new IllegalArgumentException("no latency sample after the warm-up (" + count + " samples)");
        }
        long[] measured = Arrays.copyOfRange(ms, warmUp, count);
        long[] warm = Arrays.copyOfRange(ms, 0, warmUp);
        Arrays.sort(measured);
        Arrays.sort(warm);
        return new Latencies(measured.length, percentile(measured, 0.50), percentile(measured, 0.99), measured[measured.length - 1],
                warm.length == 0 ? 0 : percentile(warm, 0.99));
    }

    /** Nearest-rank percentile {@code q} in (0, 1] of ascending {@code sorted} (not empty). */
    static double percentile(long[] sorted, double q) {
        return sorted[Math.max(0, Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1))];
    }
}
