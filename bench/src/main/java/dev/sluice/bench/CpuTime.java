package dev.sluice.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The CPU time a set of processes has used, from Linux's {@code /proc/<pid>/stat} (fields 14 and
 * 15, {@code utime} and {@code stime}, in clock ticks; proc(5)). Two readings around a measured
 * interval give each side's CPU share: {@code Δcpu / Δwall} is the cores it kept busy (1.0 = one
 * core). Processes that end between two readings are not counted. Not thread-safe; Linux only.
 */
final class CpuTime {

    /** {@code USER_HZ}: the kernel exposes 100 on every architecture Linux supports (proc(5), times(2)). */
    private static final double TICKS_PER_SECOND = 100.0;

    private CpuTime() {
    }

    /** CPU seconds (user + system) used so far by {@code pid} and its descendants. */
    static double seconds(long pid) {
        return ProcessHandle.of(pid).map(h -> Stream.concat(Stream.of(h), h.descendants()).mapToDouble(p -> of(p.pid())).sum())
                .orElse(0.0);
    }

    /** CPU seconds used so far by each of {@code pids} and their descendants. */
    static double seconds(List<Long> pids) {
        return pids.stream().mapToDouble(CpuTime::seconds).sum();
    }

    /** CPU seconds (user + system) of one process, 0 when it has ended. */
    private static double of(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // the command name (field 2) is in parentheses and may hold spaces: count fields after the last ')'
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / TICKS_PER_SECOND;
        } catch (IOException | RuntimeException e) {
            return 0.0;
        }
    }
}
