package dev.sluice.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.Layer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Loads and validates {@code pipelines/<name>.yaml} and the contract files it names (paths
 * relative to the spec's folder). Every problem in the spec and its contracts is collected and
 * reported together ({@link SpecValidationException}); nothing is half-loaded. Thread-safe.
 *
 * <p>The spec keys are documented in README.md ("The pipeline spec").
 */
public final class PipelineSpecLoader {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
            .enable(com.fasterxml.jackson.core.JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    private final EnvInterpolator env;
    private final boolean requireSecrets;

    /**
     * @param env the environment for {@code ${…}} interpolation (see {@link SluiceEnvironment})
     */
    public PipelineSpecLoader(EnvInterpolator env) {
        this(env, true);
    }

    private PipelineSpecLoader(EnvInterpolator env, boolean requireSecrets) {
        this.env = env;
        this.requireSecrets = requireSecrets;
    }

    /**
     * A loader for commands that inspect a pipeline's warehouse without running it ({@code sql},
     * {@code erase}, {@code quality show}, …): PII keys that are not set are left out instead of
     * being problems, so that an auditor does not need the HMAC secret. Such a spec cannot run a
     * {@code hash} policy.
     */
    public static PipelineSpecLoader forInspection(EnvInterpolator env) {
        return new PipelineSpecLoader(env, false);
    }

    /**
     * Loads and validates a spec.
     *
     * @throws SpecValidationException listing every problem, when there is at least one
     */
    public PipelineSpec load(Path specFile) {
        List<SpecProblem> problems = new ArrayList<>();
        Optional<PipelineSpec> spec = read(specFile, problems);
        if (!problems.isEmpty() || spec.isEmpty()) {
            throw new SpecValidationException(problems);
        }
        return spec.get();
    }

    /**
     * Loads and validates one contract file.
     *
     * @throws SpecValidationException listing every problem, when there is at least one
     */
    public ContractSpec loadContract(Path contractFile) {
        List<SpecProblem> problems = new ArrayList<>();
        if (!Files.isRegularFile(contractFile)) {
            throw new SpecValidationException(List.of(new SpecProblem(contractFile.toString(), "", "", "no such file")));
        }
        Optional<ContractSpec> c = new ContractLoader(env).load(contractFile, problems);
        if (!problems.isEmpty() || c.isEmpty()) {
            throw new SpecValidationException(problems);
        }
        return c.get();
    }

    /** Every problem of a spec; empty when it is valid. */
    public List<SpecProblem> validate(Path specFile) {
        List<SpecProblem> problems = new ArrayList<>();
        read(specFile, problems);
        return problems;
    }

    private Optional<PipelineSpec> read(Path specFile, List<SpecProblem> problems) {
        String fileName = specFile.toString();
        JsonNode root;
        try {
            root = YAML.readTree(specFile.toFile());
        } catch (IOException e) {
            problems.add(new SpecProblem(fileName, "", "", Files.exists(specFile)
                    ? ContractLoader.yamlError(e) : "no such file"));
            return Optional.empty();
        }
        if (root == null || !root.isObject()) {
            problems.add(new SpecProblem(fileName, "", "", "expected a YAML map (pipeline, warehouse, sources, layers)"));
            return Optional.empty();
        }
        YamlCursor c = new YamlCursor(fileName, "", root, problems, env);
        c.allowOnly(Set.of("pipeline", "description", "warehouse", "partitioning", "ingest", "execution", "hot_path", "versions", "pii", "quality", "lineage", "sources", "layers",
                "backfill_window", "schedule", "tier", "datasets", "alerts", "requirements", "design_exemptions"));
        Optional<String> name = c.text("pipeline", true);
        name.filter(n -> !ContractLoader.IDENTIFIER.matcher(n).matches())
                .ifPresent(n -> c.problem("pipeline", n, "a pipeline name is " + ContractLoader.IDENTIFIER_RULE));
        String description = c.text("description", false).orElse("");
        Optional<WarehouseSpec> warehouse = warehouse(c);
        dev.sluice.core.PartitionKind partitionKind = c.map("partitioning", false).map(p -> {
            p.allowOnly(Set.of("kind"));
            return p.text("kind", true).map(k -> dev.sluice.core.PartitionKind.of(k).orElseGet(() -> {
                p.problem("kind", k, "a partitioning kind is daily, hourly, monthly or per_fire");
                return dev.sluice.core.PartitionKind.DAILY;
            })).orElse(dev.sluice.core.PartitionKind.DAILY);
        }).orElse(dev.sluice.core.PartitionKind.DAILY);
        ScheduleSpec schedule = schedule(c, partitionKind);
        int tier = c.integer("tier", 0, 1).orElse(0);
        if (tier > 3) {
            c.problem("tier", Integer.toString(tier), "an availability tier is 1 (99.9 %), 2 (99.5 %) or 3 (99.0 %)");
        }
        var ingest = c.map("ingest", false);
        ingest.ifPresent(i -> i.allowOnly(Set.of("batch_rows", "max_line_bytes")));
        int batchRows = ingest.map(i -> i.integer("batch_rows", 10_000, 1).orElse(10_000)).orElse(10_000);
        int maxLineBytes = ingest.map(i -> i.integer("max_line_bytes", 1 << 20, 1).orElse(1 << 20)).orElse(1 << 20);

        int keepVersions = c.map("versions", false).map(v -> {
            v.allowOnly(Set.of("keep"));
            return v.integer("keep", 3, 1).orElse(3);
        }).orElse(3);
        String sparkMaster = c.map("quality", false).map(q -> {
            q.allowOnly(Set.of("spark_master"));
            return q.text("spark_master", false).orElse(null);
        }).orElseGet(() -> env.interpolate("${SLUICE_SPARK_MASTER:-local[*]}").value());
        java.time.Period backfillWindow = c.text("backfill_window", false).map(w -> {
            try {
                java.time.Period period = java.time.Period.parse(w);
                if (period.isNegative() || period.isZero()) {
                    c.problem("backfill_window", w, "a backfill window is a positive ISO-8601 period, e.g. P400D");
                }
                return period;
            } catch (java.time.format.DateTimeParseException e) {
                c.problem("backfill_window", w, "not an ISO-8601 period (PnYnMnD, e.g. P400D or P1Y)");
                return null;
            }
        }).orElse(null);
        java.util.Map<dev.sluice.core.DatasetRef, DatasetPolicy> datasets = datasets(c);
        String alertWebhook = c.map("alerts", false).flatMap(a -> {
            a.allowOnly(Set.of("webhook"));
            return a.text("webhook", false).filter(u -> !u.isBlank());
        }).orElse(null);
        if (alertWebhook != null && !alertWebhook.startsWith("http://") && !alertWebhook.startsWith("https://")) {
            c.problem("alerts.webhook", "****", "an alert webhook is an http:// or https:// URL");
        }
        LineageSpec lineage = lineage(c);
        SourceReader sourceReader = new SourceReader(env, specFile.toAbsolutePath().getParent());
        Map<String, SourceSpec> sources = sourceReader.read(c);
        Set<String> declaredSources = SourceReader.declaredNames(c);
        List<TableSpec> tables = new LayerReader(c, sources, declaredSources, partitionKind).tables();
        if (schedule != null) {
            for (dev.sluice.core.DatasetRef d : schedule.after()) {
                if (tables.stream().anyMatch(t -> t.table().equals(d))) {
                    c.problem("schedule.after", d.qualifiedName(), "a table of this pipeline: each run would publish it and start the"
                            + " next run; name another pipeline's dataset");
                }
            }
        }
        ExecutionSpec execution = execution(c, tables);
        HotPathSpec hotPath = HotPathReader.read(c, name.orElse("pipeline"), sources, declaredSources, tables, partitionKind);
        PiiKeys piiKeys = PiiReader.keys(c, sources.values().stream().anyMatch(s -> s.pii().containsValue(PiiPolicy.HASH)), requireSecrets, env);

        if (!problems.isEmpty() || name.isEmpty() || warehouse.isEmpty()) {
            return Optional.empty();
        }
        String hash = hash(specFile, sourceReader.contractFiles());
        return Optional.of(new PipelineSpec(specFile, name.get(), description, warehouse.get(), batchRows, maxLineBytes, keepVersions,
                List.copyOf(sources.values()), tables, sparkMaster == null ? "local[*]" : sparkMaster, lineage, piiKeys, partitionKind, schedule, tier, datasets, alertWebhook, backfillWindow, execution, hotPath, requirements(c), hash));
    }

    /**
     * {@code schedule:} ({@code cron} required; {@code time_zone} default UTC; {@code lag} default 1,
     * 0 for per-fire partitions), or null when absent.
     */
    private static @org.jspecify.annotations.Nullable ScheduleSpec schedule(YamlCursor c, dev.sluice.core.PartitionKind kind) {
        return c.map("schedule", false).map(s -> {
            s.allowOnly(Set.of("cron", "time_zone", "lag", "after", "poll"));
            List<dev.sluice.core.DatasetRef> after = new ArrayList<>();
            for (YamlCursor a : s.list("after", false)) {
                a.scalar().ifPresent(name -> {
                    try {
                        after.add(dev.sluice.core.DatasetRef.parse(name));
                    } catch (RuntimeException e) {
                        a.problemHere(name, "a data trigger names a dataset (schema.table) another pipeline publishes");
                    }
                });
            }
            String cron = s.text("cron", after.isEmpty() && !s.has("after")).orElse(null);
            if (cron != null) {
                int fields = cron.trim().split("\\s+").length;
                if (fields < 6 || fields > 7) {
                    s.problem("cron", cron, "a Quartz cron expression has 6 or 7 fields, seconds first (e.g. '0 30 2 * * ?' for 02:30 daily)");
                }
            }
            java.time.ZoneId zone = s.text("time_zone", false).map(z -> {
                try {
                    return java.time.ZoneId.of(z);
                } catch (java.time.DateTimeException e) {
                    s.problem("time_zone", z, "not a time zone id (e.g. UTC, Europe/Berlin)");
                    return java.time.ZoneOffset.UTC;
                }
            }).orElse(java.time.ZoneOffset.UTC);
            int dflt = kind == dev.sluice.core.PartitionKind.PER_FIRE ? 0 : 1;
            int lag = s.integer("lag", dflt, 0).orElse(dflt);
            if (kind == dev.sluice.core.PartitionKind.PER_FIRE && lag != 0) {
                s.problem("lag", Integer.toString(lag), "a per-fire partition is the fire itself: lag must be 0");
            }
            java.time.Duration poll = s.duration("poll", java.time.Duration.ofSeconds(30));
            if (s.has("after") && after.isEmpty()) {
                s.problem("after", "[]", "name at least one dataset, or leave after out");
            }
            return cron == null && after.isEmpty() ? null : new ScheduleSpec(cron, zone, lag, after, poll);
        }).orElse(null);
    }

    /**
     * {@code datasets:} a map from dataset ({@code schema.table}) to {@code owner},
     * {@code update_interval} and {@code freshness_sla} (ISO-8601 durations; the SLA must exceed
     * 1.5 × the interval).
     */
    private static java.util.Map<dev.sluice.core.DatasetRef, DatasetPolicy> datasets(YamlCursor c) {
        java.util.Map<dev.sluice.core.DatasetRef, DatasetPolicy> out = new java.util.LinkedHashMap<>();
        c.map("datasets", false).ifPresent(m -> m.keys().forEach(name -> m.map(name, true).ifPresent(d -> {
            d.allowOnly(Set.of("owner", "update_interval", "freshness_sla"));
            String owner = d.text("owner", false).orElse(null);
            java.time.Duration interval = d.duration("update_interval");
            java.time.Duration sla = d.duration("freshness_sla");
            dev.sluice.core.DatasetRef ref;
            try {
                ref = dev.sluice.core.DatasetRef.parse(name);
            } catch (RuntimeException e) {
                m.problem(name, name, "a dataset is named schema.table");
                return;
            }
            if (interval == null || sla == null) {
                return;
            }
            if (sla.toMillis() <= interval.toMillis() * DatasetPolicy.WARN_FACTOR) {
                d.problem("freshness_sla", sla.toString(), "the freshness SLA must exceed 1.5 × the update interval ("
                        + java.time.Duration.ofMillis(Math.round(interval.toMillis() * DatasetPolicy.WARN_FACTOR)) + "): a dataset"
                        + " must be able to be late (warn) before it breaks its promise");
            }
            out.put(ref, new DatasetPolicy(owner, interval, sla));
        })));
        return out;
    }

    /** {@code requirements:} latency, peak volume, live numbers, history, reporting; null when absent. */
    private static @org.jspecify.annotations.Nullable RequirementsSpec requirements(YamlCursor c) {
        return c.map("requirements", false).map(r -> {
            r.allowOnly(Set.of("latency", "peak_events_per_second", "peak_rows_per_day", "live_numbers", "history", "reporting"));
            java.time.Duration latency = r.has("latency") ? r.duration("latency") : null;
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
            if (!Set.of("none", "hourly", "daily", "weekly").contains(reporting)) {
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

    /** {@code execution:} step timeouts, retries and the control poll; defaults where absent. */
    private static ExecutionSpec execution(YamlCursor c, List<TableSpec> tables) {
        Optional<YamlCursor> e = c.map("execution", false);
        if (e.isEmpty()) {
            return ExecutionSpec.DEFAULT;
        }
        YamlCursor x = e.get();
        x.allowOnly(Set.of("step_timeout", "retry", "control_poll", "steps"));
        ExecutionSpec d = ExecutionSpec.DEFAULT;
        java.time.Duration timeout = x.duration("step_timeout", d.stepTimeout());
        RetrySpec retry = x.map("retry", false).map(r -> retry(r, d.retry())).orElse(d.retry());
        java.time.Duration poll = x.duration("control_poll", d.controlPoll());
        Set<String> steps = new HashSet<>();
        for (TableSpec t : tables) {
            steps.add(t.stepName());
            if (t.hasGate()) {
                steps.add("gate." + t.stepName());
            }
        }
        Map<String, java.time.Duration> timeouts = new LinkedHashMap<>();
        Map<String, RetrySpec> retries = new LinkedHashMap<>();
        x.map("steps", false).ifPresent(m -> m.keys().forEach(step -> m.map(step, true).ifPresent(s -> {
            if (!steps.contains(step)) {
                m.problem(step, step, "not a step of this pipeline; its steps: " + String.join(", ", new java.util.TreeSet<>(steps)));
                return;
            }
            s.allowOnly(Set.of("timeout", "retry"));
            if (s.has("timeout")) {
                timeouts.put(step, s.duration("timeout", timeout));
            }
            s.map("retry", false).ifPresent(r -> retries.put(step, retry(r, retry)));
        })));
        return new ExecutionSpec(timeout, retry, poll, timeouts, retries);
    }

    /** A {@code retry:} map; what it leaves out comes from {@code base}. */
    private static RetrySpec retry(YamlCursor r, RetrySpec base) {
        r.allowOnly(Set.of("max_attempts", "backoff", "multiplier", "max_backoff"));
        int attempts = r.integer("max_attempts", base.maxAttempts(), 1).orElse(base.maxAttempts());
        double multiplier = r.text("multiplier", false).map(m -> {
            if (!CheckReader.isNumber(m) || Double.parseDouble(m) < 1) {
                r.problem("multiplier", m, "a number ≥ 1 (each wait is the one before × it)");
                return base.multiplier();
            }
            return Double.parseDouble(m);
        }).orElse(base.multiplier());
        return new RetrySpec(attempts, r.duration("backoff", base.backoff()), multiplier,
                r.duration("max_backoff", base.maxBackoff()));
    }

    /** {@code lineage:}, each key defaulting as {@link LineageSpec} documents. */
    private LineageSpec lineage(YamlCursor c) {
        Optional<YamlCursor> l = c.map("lineage", false);
        l.ifPresent(x -> x.allowOnly(Set.of("transport", "file", "url", "api_key", "namespace", "queue", "kafka_bootstrap", "topic")));
        java.util.function.BiFunction<String, String, String> value = (key, dflt) -> l.flatMap(x -> x.text(key, false))
                .orElseGet(() -> env.interpolate(dflt).value());
        String t = value.apply("transport", "${SLUICE_LINEAGE_TRANSPORT:-file}").toLowerCase(java.util.Locale.ROOT);
        YamlCursor where = l.orElse(c);
        String prefix = l.isPresent() ? "" : "lineage.";
        LineageSpec.Transport transport = LineageSpec.Transport.parse(t).orElseGet(() -> {
            where.problem(prefix + "transport", t, "one of file, console, http, kafka, none (SLUICE_LINEAGE_TRANSPORT)");
            return LineageSpec.Transport.NONE;
        });
        String url = value.apply("url", "${SLUICE_LINEAGE_URL:-}");
        if (transport == LineageSpec.Transport.HTTP && !validHttpUrl(url)) {
            where.problem(prefix + "url", url, "the http transport needs an http(s)://host[:port] base URL"
                    + " (events go to POST {url}/api/v1/lineage; SLUICE_LINEAGE_URL)");
        }
        int queue = l.map(x -> x.integer("queue", 10_000, 1).orElse(10_000)).orElse(10_000);
        return new LineageSpec(transport, value.apply("file", "${SLUICE_HOME}/lineage/events.ndjson"), url.isEmpty() ? null : url,
                value.apply("api_key", "${SLUICE_LINEAGE_API_KEY:-}"), value.apply("namespace", "${SLUICE_LINEAGE_NAMESPACE:-sluice}"), queue,
                value.apply("kafka_bootstrap", "${SLUICE_KAFKA_BOOTSTRAP:-localhost:9092}"), value.apply("topic", "${SLUICE_LINEAGE_TOPIC:-openlineage}"));
    }

    private static boolean validHttpUrl(String url) {
        try {
            java.net.URI u = new java.net.URI(url);
            return ("http".equals(u.getScheme()) || "https".equals(u.getScheme())) && u.getHost() != null && u.getPort() <= 65535;
        } catch (java.net.URISyntaxException e) {
            return false;
        }
    }

    private static Optional<WarehouseSpec> warehouse(YamlCursor c) {
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

    private static String hash(Path specFile, List<Path> contractFiles) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(Files.readAllBytes(specFile));
            for (Path f : contractFiles.stream().distinct().sorted().toList()) {
                sha.update(f.getFileName().toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
                sha.update(Files.readAllBytes(f));
            }
            return HexFormat.of().formatHex(sha.digest());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
