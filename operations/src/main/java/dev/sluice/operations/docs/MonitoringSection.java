package dev.sluice.operations.docs;

import dev.sluice.config.DatasetPolicy;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.ScheduleSpec;
import dev.sluice.core.DatasetRef;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The "Monitoring" section: the availability tier (docs/scheduling.md: 1 = 99.9 %, 2 = 99.5 %,
 * 3 = 99.0 % of a 730-hour month, i.e. 43.8 min, 3.65 h, 7.3 h of downtime) and its misfire
 * policy, the schedule, per dataset its update interval, warn threshold and freshness SLA, the
 * freshness-check cadence (half the shortest interval, as {@code PipelineScheduler} schedules it)
 * and whether an alert webhook is configured (never its URL). Stateless.
 */
final class MonitoringSection {

    /** The month the tiers' downtime is counted in, in hours. */
    static final int MONTH_HOURS = 730;

    private MonitoringSection() {
    }

    static void write(Markdown md, PipelineSpec spec) {
        md.heading(2, "Monitoring");
        md.bullet(tier(spec.tier()));
        ScheduleSpec s = spec.schedule();
        if (s == null) {
            md.bullet("schedule: none (run by hand or by a backfill only)");
        } else {
            if (s.hasCron()) {
                md.bullet("schedule: cron " + Markdown.code(s.cron()) + " in time zone " + s.zone().getId() + "; a fire loads the "
                        + spec.partitionKind().id() + " partition " + s.lag() + " before the one holding its scheduled time (lag "
                        + s.lag() + ")");
            }
            if (!s.after().isEmpty()) {
                md.bullet("data triggers: runs a partition when " + String.join(", ", s.after().stream().map(DatasetRef::qualifiedName).toList())
                        + " published it; looked for every " + s.poll());
            }
        }
        Map<DatasetRef, DatasetPolicy> datasets = spec.datasets();
        if (datasets.isEmpty()) {
            md.bullet("datasets: none declares an update interval and freshness SLA (`datasets:`), so no freshness check runs");
        } else {
            Duration shortest = datasets.values().stream().map(DatasetPolicy::updateInterval).min(Duration::compareTo).orElseThrow();
            md.bullet("freshness check: every " + Duration.ofMillis(Math.max(1_000, shortest.toMillis() / 2))
                    + " (half the shortest update interval) while `sluice scheduler` runs; each change of state is alerted once");
        }
        md.bullet("alerts: always to the log; webhook " + (spec.alertWebhook() == null ? "not configured (`alerts.webhook`)"
                : "configured (`alerts.webhook`, URL not shown)") + "; kinds FRESHNESS_WARN, FRESHNESS_BREACH, FRESHNESS_OK, RUN_FAILED,"
                + " GATE_FAILED");
        if (!datasets.isEmpty()) {
            List<List<String>> rows = new ArrayList<>();
            datasets.forEach((ref, p) -> rows.add(List.of(Markdown.code(ref.qualifiedName()), p.updateInterval().toString(),
                    p.warnAfter().toString(), p.freshnessSla().toString())));
            md.table(List.of("dataset", "update interval", "warn after (1.5 × interval)", "freshness SLA (breach after)"), rows);
        }
        md.blank();
    }

    /** The tier line, e.g. tier 2: 99.5 % available, at most 3.65 h down in a 730-hour month. */
    static String tier(int tier) {
        String misfires = tier == 3 ? "missed fires: only the newest runs, the others are recorded as MISSED (backfill them)"
                : "missed fires: each runs when a scheduler is back, oldest first";
        return switch (tier) {
            case 1 -> "tier 1: 99.9 % availability, at most 43.8 min of downtime in a " + MONTH_HOURS + "-hour month; " + misfires;
            case 2 -> "tier 2: 99.5 % availability, at most 3.65 h of downtime in a " + MONTH_HOURS + "-hour month; " + misfires;
            case 3 -> "tier 3: 99.0 % availability, at most 7.3 h of downtime in a " + MONTH_HOURS + "-hour month; " + misfires;
            default -> "tier: none declared (`tier:` 1, 2 or 3)";
        };
    }
}
