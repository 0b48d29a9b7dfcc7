package dev.sluice.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.PartitionKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Period;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Loads and validates {@code pipelines/<name>.yaml} and the contract files it names (paths
 * relative to the spec's folder). Every problem in the spec and its contracts is collected and
 * reported together ({@link SpecValidationException}); nothing is half-loaded. Thread-safe.
 *
 * <p>This class reads the file, interpolates {@code ${…}} through {@link YamlCursor}, hands each
 * section to its reader and judges what spans sections. Each reader documents its section's keys,
 * defaults and errors: {@link PipelineSettingsReader} (pipeline, description, warehouse,
 * partitioning, tier, ingest, versions, quality, backfill_window, alerts), {@link ScheduleReader},
 * {@link DatasetPolicyReader}, {@link LineageReader}, {@link SourceReader} (with
 * {@link CsvOptionsReader}, {@link PiiReader} and {@link ContractLoader}), {@link LayerReader}
 * (with {@link QuarantineRuleReader} and {@link CheckReader}), {@link ExecutionReader},
 * {@link HotPathReader} (with {@link WindowReader} and {@link ReconcileReader}) and
 * {@link RequirementsReader}; {@code design_exemptions} is read by the design rules. docs/spec.md
 * describes the whole spec.
 */
public final class PipelineSpecLoader {

    /** The spec's sections: any other top-level key is a problem. */
    private static final Set<String> SECTIONS = Set.of("pipeline", "description", "warehouse", "partitioning", "ingest", "execution",
            "hot_path", "engine", "lakehouse", "versions", "pii", "quality", "lineage", "sources", "layers", "backfill_window", "schedule", "tier", "datasets",
            "alerts", "requirements", "design_exemptions");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

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
     * @param specFile the spec; its contract paths are relative to its folder
     * @return the spec, every section and contract validated
     * @throws SpecValidationException listing every problem (file, key path, value, reason) in the
     *     order found, when there is at least one
     * @throws UncheckedIOException when the valid spec or one of its contracts cannot be read again
     *     for the spec's hash
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

    /**
     * Every problem of a spec, in the order {@link #load} reports them; empty when it is valid.
     *
     * @throws UncheckedIOException as {@link #load} does
     */
    public List<SpecProblem> validate(Path specFile) {
        List<SpecProblem> problems = new ArrayList<>();
        read(specFile, problems);
        return problems;
    }

    /**
     * Reads the spec, section by section in a fixed order (problems are reported in that order),
     * adding every problem to {@code problems}; empty when the spec cannot be built.
     */
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
        List<SpecProblem> aliases = YamlAliases.of(specFile);
        if (!aliases.isEmpty()) {
            problems.addAll(aliases);
            return Optional.empty();
        }
        YamlCursor c = new YamlCursor(fileName, "", root, problems, env);
        c.allowOnly(SECTIONS);
        Optional<String> name = PipelineSettingsReader.name(c);
        String description = PipelineSettingsReader.description(c);
        Optional<WarehouseSpec> warehouse = PipelineSettingsReader.warehouse(c);
        PartitionKind partitionKind = PipelineSettingsReader.partitionKind(c);
        ScheduleSpec schedule = ScheduleReader.read(c, partitionKind);
        int tier = PipelineSettingsReader.tier(c);
        PipelineSettingsReader.Ingest ingest = PipelineSettingsReader.ingest(c);
        int keepVersions = PipelineSettingsReader.keepVersions(c);
        String sparkMaster = PipelineSettingsReader.sparkMaster(c, env);
        EngineSpec engine = EngineReader.read(c, env);
        Period backfillWindow = PipelineSettingsReader.backfillWindow(c);
        Map<DatasetRef, DatasetPolicy> datasets = DatasetPolicyReader.read(c);
        String alertWebhook = PipelineSettingsReader.alertWebhook(c);
        LineageSpec lineage = LineageReader.read(c, env);
        SourceReader sourceReader = new SourceReader(env, specFile.toAbsolutePath().getParent());
        Map<String, SourceSpec> sources = sourceReader.read(c);
        Set<String> declaredSources = SourceReader.declaredNames(c);
        List<TableSpec> tables = new LayerReader(c, sources, declaredSources, partitionKind).tables();
        checkTriggersAreNotOwnTables(c, schedule, tables);
        ExecutionSpec execution = ExecutionReader.read(c, tables);
        HotPathSpec hotPath = HotPathReader.read(c, name.orElse("pipeline"), sources, declaredSources, tables, partitionKind);
        PiiKeys piiKeys = PiiReader.keys(c, sources.values().stream().anyMatch(s -> s.pii().containsValue(PiiPolicy.HASH)), requireSecrets, env);

        if (!problems.isEmpty() || name.isEmpty() || warehouse.isEmpty()) {
            return Optional.empty();
        }
        String hash = hash(specFile, sourceReader.contractFiles());
        // requirements are read only now: their problems are reported only when nothing else is wrong
        return Optional.of(new PipelineSpec(specFile, name.get(), description, warehouse.get(), ingest.batchRows(), ingest.maxLineBytes(),
                keepVersions, List.copyOf(sources.values()), tables, sparkMaster, lineage, piiKeys, partitionKind, schedule, tier, datasets,
                alertWebhook, backfillWindow, execution, hotPath, RequirementsReader.read(c), hash, engine));
    }

    /**
     * {@code schedule.after} names other pipelines' datasets: a table of this pipeline would start
     * the next run with each run.
     */
    private static void checkTriggersAreNotOwnTables(YamlCursor c, @Nullable ScheduleSpec schedule, List<TableSpec> tables) {
        if (schedule != null) {
            for (DatasetRef d : schedule.after()) {
                if (tables.stream().anyMatch(t -> t.table().equals(d))) {
                    c.problem("schedule.after", d.qualifiedName(), "a table of this pipeline: each run would publish it and start the"
                            + " next run; name another pipeline's dataset");
                }
            }
        }
    }

    /** SHA-256 (hex) over the spec file and each contract file (its name and bytes, in path order, once). */
    private static String hash(Path specFile, List<Path> contractFiles) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(Files.readAllBytes(specFile));
            for (Path f : contractFiles.stream().distinct().sorted().toList()) {
                sha.update(f.getFileName().toString().getBytes(StandardCharsets.UTF_8));
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
