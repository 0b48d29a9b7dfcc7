package dev.sluice.config;

import dev.sluice.core.PartitionKind;
import java.time.Period;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Reads the spec's small sections, each a value or a map of a few values:
 * <pre>
 * pipeline: flights                  # required: a lower-case identifier of at most 63 characters (the job name)
 * description: …                     # default ""
 * warehouse:                         # required
 *   url: jdbc:h2:file:./var/wh       # required: a JDBC URL starting jdbc:h2: or jdbc:postgresql:
 *   user: sa                         # default ""
 *   password: ${SLUICE_WAREHOUSE_PASSWORD:-}   # default ""; never shown in a problem
 * partitioning:
 *   kind: daily                      # daily (default), hourly, monthly or per_fire; required when partitioning is given
 * tier: 2                            # the availability tier: 1 (99.9 %), 2 (99.5 %) or 3 (99.0 %); default 0: undeclared
 * ingest:
 *   batch_rows: 10000                # default 10000, at least 1: rows per Bronze chunk (one transaction)
 *   max_line_bytes: 1048576          # default 1048576, at least 1: a longer CSV/NDJSON line (in characters)
 *                                    #   is quarantined as a row
 * versions:
 *   keep: 3                          # default 3, at least 1: versions of each Silver/Gold partition kept for rollback
 * quality:
 *   spark_master: local[2]           # default ${SLUICE_SPARK_MASTER:-local[*]}: the quality gates' Spark master
 * backfill_window: P400D             # optional: how far back from today a backfill may reach, a positive
 *                                    #   ISO-8601 period; default none (null): no limit
 * alerts:
 *   webhook: https://hooks.example/x # optional: an http:// or https:// URL alerts are POSTed to; empty: none
 *                                    #   (null, alerts are logged only); never shown in a problem
 * </pre>
 * Each method reads one section of the spec's root; problems are added to the cursor's list with
 * their key paths, and a bad value leaves the default. Stateless.
 */
final class PipelineSettingsReader {

    private static final PartitionKind DEFAULT_PARTITION_KIND = PartitionKind.DAILY;
    private static final int DEFAULT_BATCH_ROWS = 10_000;
    private static final int DEFAULT_MAX_LINE_BYTES = 1 << 20;
    private static final int DEFAULT_KEEP_VERSIONS = 3;
    private static final String DEFAULT_SPARK_MASTER = "${SLUICE_SPARK_MASTER:-local[*]}";

    private PipelineSettingsReader() {
    }

    /**
     * {@code ingest:} sizes of the Bronze load.
     *
     * @param batchRows rows per Bronze chunk (one transaction, one JDBC batch or one COPY)
     * @param maxLineBytes a CSV/NDJSON line longer than this (in characters) is quarantined as a row
     */
    record Ingest(int batchRows, int maxLineBytes) {
    }

    /** {@code pipeline}: the pipeline's name, or empty after a problem (missing, unresolved). */
    static Optional<String> name(YamlCursor c) {
        Optional<String> name = c.text("pipeline", true);
        name.filter(n -> !ContractLoader.IDENTIFIER.matcher(n).matches())
                .ifPresent(n -> c.problem("pipeline", n, "a pipeline name is " + ContractLoader.IDENTIFIER_RULE));
        return name;
    }

    /** {@code description}, or empty. */
    static String description(YamlCursor c) {
        return c.text("description", false).orElse("");
    }

    /** {@code warehouse:}, or empty after a problem (the section or its url missing). */
    static Optional<WarehouseSpec> warehouse(YamlCursor c) {
        return c.map("warehouse", true).flatMap(w -> {
            w.allowOnly(Set.of("url", "user", "password"));
            Optional<String> url = w.text("url", true);
            url.filter(u -> !u.startsWith("jdbc:h2:") && !u.startsWith("jdbc:postgresql:"))
                    .ifPresent(u -> w.problem("url", u, "a JDBC URL starting jdbc:h2: or jdbc:postgresql:"));
            Optional<String> user = w.text("user", false);
            Optional<String> password = w.text("password", false);
            return url.map(u -> new WarehouseSpec(u, user.orElse(""), password.orElse("")));
        });
    }

    /** {@code partitioning.kind}; daily when absent or not a kind. */
    static PartitionKind partitionKind(YamlCursor c) {
        return c.map("partitioning", false).map(p -> {
            p.allowOnly(Set.of("kind"));
            return p.text("kind", true).map(k -> PartitionKind.of(k).orElseGet(() -> {
                p.problem("kind", k, "a partitioning kind is daily, hourly, monthly or per_fire");
                return DEFAULT_PARTITION_KIND;
            })).orElse(DEFAULT_PARTITION_KIND);
        }).orElse(DEFAULT_PARTITION_KIND);
    }

    /** {@code tier}: 1, 2 or 3; 0 when undeclared (and when not a whole number, after a problem). */
    static int tier(YamlCursor c) {
        int tier = c.integer("tier", 0, 1).orElse(0);
        if (tier > 3) {
            c.problem("tier", Integer.toString(tier), "an availability tier is 1 (99.9 %), 2 (99.5 %) or 3 (99.0 %)");
        }
        return tier;
    }

    /** {@code ingest:}, each size defaulting where absent or invalid. */
    static Ingest ingest(YamlCursor c) {
        var ingest = c.map("ingest", false);
        ingest.ifPresent(i -> i.allowOnly(Set.of("batch_rows", "max_line_bytes")));
        int batchRows = ingest.map(i -> i.integer("batch_rows", DEFAULT_BATCH_ROWS, 1).orElse(DEFAULT_BATCH_ROWS)).orElse(DEFAULT_BATCH_ROWS);
        int maxLineBytes = ingest.map(i -> i.integer("max_line_bytes", DEFAULT_MAX_LINE_BYTES, 1).orElse(DEFAULT_MAX_LINE_BYTES))
                .orElse(DEFAULT_MAX_LINE_BYTES);
        return new Ingest(batchRows, maxLineBytes);
    }

    /** {@code versions.keep}: versions of each Silver/Gold partition kept, at least 1; 3 by default. */
    static int keepVersions(YamlCursor c) {
        return c.map("versions", false).map(v -> {
            v.allowOnly(Set.of("keep"));
            return v.integer("keep", DEFAULT_KEEP_VERSIONS, 1).orElse(DEFAULT_KEEP_VERSIONS);
        }).orElse(DEFAULT_KEEP_VERSIONS);
    }

    /**
     * {@code quality.spark_master}: the quality gates' Spark master URL; by default
     * {@code $SLUICE_SPARK_MASTER}, or {@code local[*]} when that is unset or empty.
     *
     * @param env the environment the default is read from
     */
    static String sparkMaster(YamlCursor c, EnvInterpolator env) {
        String sparkMaster = c.map("quality", false).map(q -> {
            q.allowOnly(Set.of("spark_master"));
            return q.text("spark_master", false).orElse(null);
        }).orElseGet(() -> env.interpolate(DEFAULT_SPARK_MASTER).value());
        return sparkMaster == null ? "local[*]" : sparkMaster;
    }

    /** {@code backfill_window}: a positive ISO-8601 period, or null when the spec sets no limit (or it is not a period). */
    static @Nullable Period backfillWindow(YamlCursor c) {
        return c.text("backfill_window", false).map(w -> {
            try {
                Period period = Period.parse(w);
                if (period.isNegative() || period.isZero()) {
                    c.problem("backfill_window", w, "a backfill window is a positive ISO-8601 period, e.g. P400D");
                }
                return period;
            } catch (DateTimeParseException e) {
                c.problem("backfill_window", w, "not an ISO-8601 period (PnYnMnD, e.g. P400D or P1Y)");
                return null;
            }
        }).orElse(null);
    }

    /** {@code alerts.webhook}: an http(s) URL, or null when absent or blank. A problem never shows the URL. */
    static @Nullable String alertWebhook(YamlCursor c) {
        String alertWebhook = c.map("alerts", false).flatMap(a -> {
            a.allowOnly(Set.of("webhook"));
            return a.text("webhook", false).filter(u -> !u.isBlank());
        }).orElse(null);
        if (alertWebhook != null && !alertWebhook.startsWith("http://") && !alertWebhook.startsWith("https://")) {
            c.problem("alerts.webhook", "****", "an alert webhook is an http:// or https:// URL");
        }
        return alertWebhook;
    }
}
