package dev.sluice.config;

import java.time.Duration;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Reads {@code requirements:}, what a pipeline's consumers need, for {@code sluice advise}
 * ({@link RequirementsSpec}):
 * <pre>
 * requirements:
 *   latency: PT30S                 # optional: end-to-end latency target, a positive ISO-8601 duration; default none (null)
 *   peak_events_per_second: 50     # optional: events/s, a whole number &gt;= 0; default none (null)
 *   peak_rows_per_day: 20_000      # optional: rows/day, a whole number (_ allowed); default none (null)
 *   live_numbers: true             # true or false; default false
 *   history: true                  # true or false; default false
 *   reporting: daily               # none (default), hourly, daily or weekly
 * </pre>
 * Problems are added to the cursor's list with their key paths; nothing is thrown for bad content.
 * Stateless.
 */
final class RequirementsReader {

    private static final Set<String> REPORTING = Set.of("none", "hourly", "daily", "weekly");

    private RequirementsReader() {
    }

    /** The requirements, or null when the spec declares none. */
    static @Nullable RequirementsSpec read(YamlCursor c) {
        return c.map("requirements", false).map(r -> {
            r.allowOnly(Set.of("latency", "peak_events_per_second", "peak_rows_per_day", "live_numbers", "history", "reporting"));
            Duration latency = r.has("latency") ? r.duration("latency") : null;
            Long events = r.has("peak_events_per_second") ? (long) r.integer("peak_events_per_second", 0, 0).orElse(0) : null;
            Long rows = r.has("peak_rows_per_day") ? r.text("peak_rows_per_day", false).map(t -> {
                try {
                    return Long.parseLong(t.replace("_", ""));
                } catch (NumberFormatException e) {
                    r.problem("peak_rows_per_day", t, "a whole number of rows per day");
                    return 0L;
                }
            }).orElse(0L) : null;
            String reporting = r.text("reporting", false).orElse("none");
            if (!REPORTING.contains(reporting)) {
                r.problem("reporting", reporting, "none, hourly, daily or weekly");
            }
            return new RequirementsSpec(latency, events, rows, bool(r, "live_numbers"), bool(r, "history"), reporting);
        }).orElse(null);
    }

    private static boolean bool(YamlCursor c, String key) {
        String t = c.text(key, false).orElse("false");
        if (!t.equals("true") && !t.equals("false")) {
            c.problem(key, t, "true or false");
        }
        return t.equals("true");
    }
}
