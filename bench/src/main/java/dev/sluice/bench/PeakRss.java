package dev.sluice.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The peak resident set of a child process while it runs: Linux's {@code VmHWM} ("high water
 * mark", proc(5)), read from {@code /proc/<pid>/status} every 200 ms by a daemon thread; the last
 * reading before the process ends is its peak up to then. Where there is no {@code /proc}, 0.
 */
final class PeakRss {

    private final AtomicLong kib = new AtomicLong();
    private final Thread reader;

    private PeakRss(Process p) {
        Path status = Path.of("/proc", Long.toString(p.pid()), "status");
        reader = new Thread(() -> {
            while (p.isAlive()) {
                try {
                    for (String line : Files.readAllLines(status)) {
                        if (line.startsWith("VmHWM:")) {
                            kib.accumulateAndGet(Long.parseLong(line.replaceAll("[^0-9]", "")), Math::max);
                        }
                    }
                    Thread.sleep(200); // a sampling period, not a wait for another thread
                } catch (IOException e) {
                    return; // the process ended between the check and the read
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }, "peak-rss-" + p.pid());
        reader.setDaemon(true);
    }

    static PeakRss watch(Process p) {
        PeakRss r = new PeakRss(p);
        r.reader.start();
        return r;
    }

    /** Stops reading; the peak seen, MiB. */
    double stop() {
        reader.interrupt();
        return kib.get() / 1024.0;
    }
}
