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
        ScheduleSpec schedule = ScheduleReader.read(c, partitionKind);
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
        java.util.Map<dev.sluice.core.DatasetRef, DatasetPolicy> datasets = DatasetPolicyReader.read(c);
        String alertWebhook = c.map("alerts", false).flatMap(a -> {
            a.allowOnly(Set.of("webhook"));
            return a.text("webhook", false).filter(u -> !u.isBlank());
        }).orElse(null);
        if (alertWebhook != null && !alertWebhook.startsWith("http://") && !alertWebhook.startsWith("https://")) {
            c.problem("alerts.webhook", "****", "an alert webhook is an http:// or https:// URL");
        }
        LineageSpec lineage = LineageReader.read(c, env);
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
        ExecutionSpec execution = ExecutionReader.read(c, tables);
        HotPathSpec hotPath = HotPathReader.read(c, name.orElse("pipeline"), sources, declaredSources, tables, partitionKind);
        PiiKeys piiKeys = PiiReader.keys(c, sources.values().stream().anyMatch(s -> s.pii().containsValue(PiiPolicy.HASH)), requireSecrets, env);

        if (!problems.isEmpty() || name.isEmpty() || warehouse.isEmpty()) {
            return Optional.empty();
        }
        String hash = hash(specFile, sourceReader.contractFiles());
        return Optional.of(new PipelineSpec(specFile, name.get(), description, warehouse.get(), batchRows, maxLineBytes, keepVersions,
                List.copyOf(sources.values()), tables, sparkMaster == null ? "local[*]" : sparkMaster, lineage, piiKeys, partitionKind, schedule, tier, datasets, alertWebhook, backfillWindow, execution, hotPath, RequirementsReader.read(c), hash));
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
