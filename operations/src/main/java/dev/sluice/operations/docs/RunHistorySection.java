package dev.sluice.operations.docs;

import dev.sluice.control.quality.QualityResultRepository;
import dev.sluice.control.run.RunRepository;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The run-derived sections: "Recent runs" (partition, attempt, run id, status, start in UTC,
 * duration, Bronze/Silver/Gold rows and quarantined rows) and "Quality history" (per check its
 * latest status in each recent partition). Stateless.
 */
final class RunHistorySection {

    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss'Z'", Locale.ROOT);

    private RunHistorySection() {
    }

    static void write(Markdown md, RunHistory h) {
        md.heading(2, "Recent runs");
        md.paragraph("The " + RunHistory.RUNS + " newest attempts, newest first (from `" + RunRepository.TABLE_NAME + "`).");
        List<List<String>> rows = new ArrayList<>();
        for (RunHistory.Run r : h.runs()) {
            rows.add(List.of(r.partitionKey(), Integer.toString(r.attempt()), Markdown.code(r.runId()), r.status(),
                    r.startedAt().withOffsetSameInstant(ZoneOffset.UTC).format(UTC),
                    r.endedAt() == null ? "-" : duration(Duration.between(r.startedAt(), r.endedAt())),
                    n(r.bronzeRows()) + " / " + n(r.silverRows()) + " / " + n(r.goldRows()), n(r.quarantined())));
        }
        md.table(List.of("partition", "attempt", "run", "status", "started", "duration", "rows (Bronze / Silver / Gold)", "quarantined"),
                rows);
        md.heading(2, "Quality history");
        if (h.checks().isEmpty()) {
            md.paragraph("No quality results recorded.");
            return;
        }
        md.paragraph("The latest status of each check in the " + h.partitions().size() + " newest partitions with results"
                + " (from `" + QualityResultRepository.TABLE_NAME + "`; `-` = not evaluated).");
        List<String> header = new ArrayList<>(List.of("dataset", "boundary", "check"));
        header.addAll(h.partitions());
        List<List<String>> checks = new ArrayList<>();
        for (RunHistory.CheckHistory c : h.checks()) {
            List<String> row = new ArrayList<>(List.of(Markdown.code(c.dataset()), c.boundary().toLowerCase(Locale.ROOT), Markdown.code(c.checkId())));
            h.partitions().forEach(p -> row.add(c.statusByPartition().getOrDefault(p, "-")));
            checks.add(row);
        }
        md.table(header, checks);
    }

    private static String n(@Nullable Long v) {
        return v == null ? "-" : String.format(Locale.ROOT, "%,d", v);
    }

    private static String duration(Duration d) {
        long s = d.toSeconds();
        return s >= 3600 ? String.format(Locale.ROOT, "%dh %02dm", s / 3600, s / 60 % 60)
                : s >= 60 ? String.format(Locale.ROOT, "%dm %02ds", s / 60, s % 60) : String.format(Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
    }
}
