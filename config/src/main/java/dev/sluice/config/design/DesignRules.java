package dev.sluice.config.design;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.sluice.config.ColumnSpec;
import dev.sluice.config.DatasetPolicy;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.Severity;
import dev.sluice.config.SourceSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.Layer;
import dev.sluice.core.PartitionKind;
import java.io.IOException;
import java.time.LocalDate;
import java.time.Period;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The design rules every pipeline spec is held to (docs/design.md, "Design rules"), judged from the spec,
 * its raw YAML (what was written, before interpolation) and its contracts:
 * <ul>
 *   <li>{@code idempotency.partition}, {@code idempotency.write_mode} (errors): every Silver/Gold
 *       table declares its {@code partition} (or {@code none}) and its {@code write} mode;
 *       {@code idempotency.bronze_append}: Bronze is {@code append};
 *       {@code idempotency.snapshot_input} (warning): a snapshot ({@code partition: none}) written
 *       {@code overwrite-partition} from a partitioned input is rebuilt by every run from that run's
 *       partition alone, so it holds the partition published last: right for full extracts, a
 *       surprise otherwise;</li>
 *   <li>{@code gates.source}, {@code gates.transform}, {@code gates.sink} (errors): at least one
 *       check at each boundary;</li>
 *   <li>{@code raw.retention} (error): every Bronze table declares a {@code retention} no shorter
 *       than the {@code backfill_window} (which must be declared);</li>
 *   <li>{@code pii.policy} (error): every contract column tagged PII has a policy;</li>
 *   <li>{@code hardcoded.secret}, {@code hardcoded.host}, {@code hardcoded.path} (errors): passwords,
 *       tokens, hosts and absolute paths come from {@code ${…}} interpolation;</li>
 *   <li>{@code ownership.owner}, {@code reliability.tier}, {@code reliability.freshness}
 *       (warnings): each published dataset (Silver and Gold) has an owner, an update interval and a
 *       freshness SLA; the pipeline an availability tier.</li>
 * </ul>
 * Stateless and thread-safe.
 */
public final class DesignRules {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Pattern SECRET_KEY = Pattern.compile("(password|secret|token|api_key|apikey|credentials?)");
    private static final Pattern HOST_KEY = Pattern.compile("(url|bootstrap_servers|kafka_bootstrap|webhook|spark_master|endpoint|host)");
    private static final Pattern PATH_KEY = Pattern.compile("^(path|dir|directory|file|home)$|_(path|dir|file)$");
    private static final Pattern HOST = Pattern.compile("(?:^|//|@|,)(?:\\[([0-9A-Fa-f:.]+)\\]|([A-Za-z0-9][A-Za-z0-9.-]*))(?::\\d+)");
    private static final Pattern URL_HOST = Pattern.compile("(?:://|,)(?:\\[([0-9A-Fa-f:.]+)\\]|([A-Za-z0-9][A-Za-z0-9.-]*))");
    private static final Pattern CREDENTIAL_IN_URL = Pattern.compile("(?i)//[^/@\\s:]+:[^/@\\s]+@|(?:password|pwd|secret|token)=[^&;\\s]");

    private DesignRules() {
    }

    /** Every broken rule of {@code spec}, errors first, then in spec order. */
    public static List<DesignFinding> check(PipelineSpec spec) {
        String file = spec.file().toString();
        JsonNode raw = raw(spec);
        List<DesignFinding> out = new ArrayList<>();
        idempotency(spec, raw, file, out);
        snapshotInputs(spec, file, out);
        gates(spec, file, out);
        retention(spec, raw, file, out);
        pii(spec, file, out);
        hardcoded(raw, "", file, out);
        ownership(spec, file, out);
        List<DesignFinding> exempted = exempt(raw, file, out);
        exempted.sort(Comparator.comparing((DesignFinding f) -> f.exemption() != null ? 2 : f.severity() == Severity.ERROR ? 0 : 1));
        return List.copyOf(exempted);
    }

    /** The rule ids, for {@code design_exemptions}. */
    public static final Set<String> RULES = Set.of("idempotency.partition", "idempotency.write_mode",
            "idempotency.bronze_append", "idempotency.snapshot_input", "gates.source", "gates.transform", "gates.sink", "raw.retention", "pii.policy",
            "hardcoded.secret", "hardcoded.host", "hardcoded.path", "ownership.owner", "reliability.tier", "reliability.freshness");

    /**
     * Applies {@code design_exemptions: [{rule, reason}]}: findings of an exempted rule carry the
     * reason and block nothing. An exemption without a reason, or of an unknown rule, is itself an
     * error ({@code design.exemption}).
     */
    private static List<DesignFinding> exempt(JsonNode raw, String file, List<DesignFinding> findings) {
        Map<String, String> reasons = new LinkedHashMap<>();
        List<DesignFinding> out = new ArrayList<>();
        JsonNode list = raw.path("design_exemptions");
        if (!list.isMissingNode() && !list.isNull() && !list.isArray()) {
            out.add(error("design.exemption", file, "design_exemptions", "a list of {rule, reason} entries, e.g."
                    + " [{rule: gates.sink, reason: \"…\"}]"));
            list = MissingNode.getInstance();
        }
        for (int i = 0; i < list.size(); i++) {
            JsonNode entry = list.get(i);
            if (entry == null || !entry.isObject()) {
                out.add(error("design.exemption", file, "design_exemptions[" + i + "]", "an entry is {rule, reason}, e.g."
                        + " {rule: " + (entry == null ? "gates.sink" : entry.asText()) + ", reason: \"…\"}"));
                continue;
            }
            List<String> unknown = new ArrayList<>();
            entry.fieldNames().forEachRemaining(n -> {
                if (!n.equals("rule") && !n.equals("reason")) {
                    unknown.add(n);
                }
            });
            if (!unknown.isEmpty()) {
                out.add(error("design.exemption", file, "design_exemptions[" + i + "]." + unknown.get(0), "unknown key: an entry is"
                        + " {rule, reason}"));
                continue;
            }
            String rule = entry.path("rule").asText("");
            String reason = entry.path("reason").asText("").strip();
            if (reasons.containsKey(rule)) {
                out.add(error("design.exemption", file, "design_exemptions[" + i + "].rule", rule + " is exempted twice"));
            } else if (!RULES.contains(rule)) {
                out.add(error("design.exemption", file, "design_exemptions[" + i + "].rule", "'" + rule + "' is not a design rule; one of "
                        + new TreeSet<>(RULES)));
            } else if (reason.isEmpty()) {
                out.add(error("design.exemption", file, "design_exemptions[" + i + "].reason", "an exemption from " + rule
                        + " says why (reason), for the reviewer"));
            } else {
                reasons.put(rule, reason);
            }
        }
        for (DesignFinding f : findings) {
            String reason = reasons.get(f.ruleId());
            out.add(reason == null ? f : new DesignFinding(f.ruleId(), f.severity(), f.file(), f.keyPath(), f.message(), reason));
        }
        return out;
    }

    /** The findings that block a run: errors, and warnings too when {@code strict}; never an exempted one. */
    public static List<DesignFinding> blocking(List<DesignFinding> findings, boolean strict) {
        return findings.stream().filter(f -> f.exemption() == null && (strict || f.severity() == Severity.ERROR)).toList();
    }

    private static JsonNode raw(PipelineSpec spec) {
        try {
            JsonNode n = YAML.readTree(spec.file().toFile());
            return n == null ? YAML.createObjectNode() : n;
        } catch (IOException e) {
            throw new IllegalStateException("cannot re-read " + spec.file() + ": " + e.getMessage(), e);
        }
    }

    private static void idempotency(PipelineSpec spec, JsonNode raw, String file, List<DesignFinding> out) {
        for (Layer layer : Layer.values()) {
            JsonNode tables = raw.path("layers").path(layer.id());
            for (int i = 0; i < tables.size(); i++) {
                JsonNode t = tables.get(i);
                String at = "layers." + layer.id() + "[" + i + "]";
                String name = t.path("table").asText("?");
                if (layer == Layer.BRONZE) {
                    if (t.has("write") && !t.path("write").asText().equals("append")) {
                        out.add(error("idempotency.bronze_append", file, at + ".write", "Bronze table " + name + " is append-only (raw rows with"
                                + " ingest metadata, each load recorded); write: " + t.path("write").asText() + " is not a Bronze write mode"));
                    }
                    continue;
                }
                if (!t.has("partition")) {
                    out.add(error("idempotency.partition", file, at + ".partition", layer.id() + " table " + name + " declares no partition:"
                            + " write partition: " + spec.partitionKind().id() + " (one version per partition, re-runs replace it) or"
                            + " partition: none (a reference snapshot)"));
                }
                if (!t.has("write")) {
                    out.add(error("idempotency.write_mode", file, at + ".write", layer.id() + " table " + name + " declares no write mode:"
                            + " write overwrite-partition (a re-run replaces the partition) or merge-on-key (a re-run upserts by key)"));
                }
            }
        }
    }

    /**
     * A snapshot written {@code overwrite-partition} from a partitioned input: each run replaces it with
     * what the run's own partition of the input gives. A warning, not an error: a pipeline whose
     * every partition is a full extract means exactly that.
     */
    private static void snapshotInputs(PipelineSpec spec, String file, List<DesignFinding> out) {
        for (Layer layer : List.of(Layer.SILVER, Layer.GOLD)) {
            List<TableSpec> tables = spec.tables(layer);
            for (int i = 0; i < tables.size(); i++) {
                TableSpec t = tables.get(i);
                if (t.mergeOnKey() || !spec.snapshotOfPartitionedInput(t)) {
                    continue;
                }
                String rollup = spec.partitionKind() == PartitionKind.DAILY ? "monthly"
                        : spec.partitionKind() == PartitionKind.HOURLY ? "daily" : null;
                out.add(warn("idempotency.snapshot_input", file, "layers." + layer.id() + "[" + i + "].partition", layer.id() + " table "
                        + t.table() + " is a snapshot (partition: none) written overwrite-partition from " + t.input() + ", which is"
                        + " partitioned: every run rebuilds it from its own partition of " + t.input() + " alone, so it holds the"
                        + " partition published last. Right when each partition is a full extract; else declare partition: "
                        + spec.partitionKind().id() + (layer == Layer.GOLD && rollup != null ? " or a rollup (e.g. partition: " + rollup + ")" : "")));
            }
        }
    }

    private static void gates(PipelineSpec spec, String file, List<DesignFinding> out) {
        String[][] boundaries = {{"source", "bronze"}, {"transform", "silver"}, {"sink", "gold"}};
        for (String[] b : boundaries) {
            Layer layer = Layer.valueOf(b[1].toUpperCase(Locale.ROOT));
            List<TableSpec> tables = spec.tables(layer);
            if (tables.stream().noneMatch(t -> !t.checks().isEmpty())) {
                out.add(error("gates." + b[0], file, "layers." + b[1], "no quality check at the " + b[0] + " boundary: give at least one "
                        + b[1] + " table checks (e.g. expect_table_row_count_to_be_between on " + (tables.isEmpty() ? "a " + b[1] + " table"
                        : tables.get(tables.size() - 1).table().qualifiedName()) + ")"));
            }
        }
    }

    private static void retention(PipelineSpec spec, JsonNode raw, String file, List<DesignFinding> out) {
        Period window = spec.backfillWindow();
        if (window == null) {
            out.add(error("raw.retention", file, "backfill_window", "no backfill_window: declare how far back a backfill may reach"
                    + " (e.g. P400D), so that Bronze's retention can be held to it"));
        }
        LocalDate ref = LocalDate.of(2001, 1, 1); // periods compared by the dates they reach back to from one day
        List<TableSpec> bronze = spec.tables(Layer.BRONZE);
        for (int i = 0; i < bronze.size(); i++) {
            TableSpec t = bronze.get(i);
            String at = "layers.bronze[" + i + "].retention";
            if (t.retention() == null) {
                out.add(error("raw.retention", file, at, "Bronze table " + t.table() + " declares no retention: raw rows are what a"
                        + " backfill replays; keep them at least as long as backfill_window" + (window == null ? "" : " (" + window + ")")));
            } else if (window != null && ref.minus(t.retention()).isAfter(ref.minus(window))) {
                out.add(error("raw.retention", file, at, "Bronze table " + t.table() + " keeps raw rows " + t.retention()
                        + ", shorter than backfill_window " + window + ": a backfill could reach partitions whose raw rows are gone"));
            }
        }
    }

    private static void pii(PipelineSpec spec, String file, List<DesignFinding> out) {
        for (SourceSpec s : spec.sources()) {
            for (ColumnSpec c : s.contract().columns()) {
                if (c.pii() && !s.pii().containsKey(c.name())) {
                    out.add(error("pii.policy", s.contract().file().toString(), "columns." + c.name(), "PII column " + c.name()
                            + " of contract " + s.contract().label() + " has no policy in source " + s.name()
                            + ": give it one of hash, mask, drop, keep under sources[" + spec.sources().indexOf(s) + "].pii"));
                }
            }
        }
    }

    /** Literal secrets, hosts and absolute paths, outside ${…}, anywhere in the spec. */
    private static void hardcoded(JsonNode node, String path, String file, List<DesignFinding> out) {
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                String key = e.getKey();
                String at = path.isEmpty() ? key : path + "." + key;
                if (key.equals("columns") || key.equals("measures") || key.equals("sql")) {
                    continue; // names → types, or SQL: no environment values there
                }
                if (e.getValue().isValueNode()) {
                    literal(key, e.getValue().asText(), at, file, out);
                } else {
                    hardcoded(e.getValue(), at, file, out);
                }
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                hardcoded(node.get(i), path + "[" + i + "]", file, out);
            }
        }
    }

    private static void literal(String key, String value, String at, String file, List<DesignFinding> out) {
        String k = key.toLowerCase(Locale.ROOT);
        String residual = withoutInterpolation(value);
        boolean keyMaterial = at.startsWith("pii.keys.");
        boolean inUrl = CREDENTIAL_IN_URL.matcher(residual).find();
        if ((SECRET_KEY.matcher(k).find() || keyMaterial || inUrl) && !residual.isBlank()) {
            if (inUrl || keyMaterial) {
                out.add(error("hardcoded.secret", file, at, keyMaterial ? "a literal HMAC key: write ${ENV_VAR} (keys come from the environment"
                        + " and are never logged; the value is not shown)" : "a literal credential in " + key + " (user:password@ or"
                        + " password=): give it through ${ENV_VAR} or the warehouse.user/password keys (the value is not shown)"));
                return;
            }
            out.add(error("hardcoded.secret", file, at, "a literal " + key + ": write ${ENV_VAR} (secrets come from the environment and are"
                    + " never logged; the value is not shown)"));
            return;
        }
        if (HOST_KEY.matcher(k).find()) {
            var m = (residual.contains("://") ? URL_HOST : HOST).matcher(residual);
            if (m.find()) {
                out.add(error("hardcoded.host", file, at, "a literal host " + (m.group(1) != null ? m.group(1) : m.group(2))
                        + ": write ${ENV_VAR:-default} so that each"
                        + " environment points it elsewhere"));
                return;
            }
            // judged on the value as written: jdbc:h2:file:${SLUICE_HOME}/warehouse is anchored by a variable
            if (value.matches(".*:file:/.*") || value.matches(".*:(?:file:)?[A-Za-z]:\\\\.*")) {
                out.add(error("hardcoded.path", file, at, "a literal absolute path in " + key + ": build it from ${SLUICE_HOME} or"
                        + " ${ENV_VAR:-default}"));
            }
            return;
        }
        // absolute when it starts with / (or a drive) itself: ${SLUICE_HOME}/landing is anchored by a variable
        if (PATH_KEY.matcher(k).find() && !k.equals("array_path") && (value.startsWith("/") || value.matches("^[A-Za-z]:[\\\\/].*"))) {
            out.add(error("hardcoded.path", file, at, "a literal absolute path " + value + ": build it from ${SLUICE_HOME} or"
                    + " ${ENV_VAR:-default}"));
        }
    }

    /** {@code value} with every ${…} (nested ones included) removed: what was written literally. */
    static String withoutInterpolation(String value) {
        StringBuilder out = new StringBuilder();
        int depth = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '$' && i + 1 < value.length() && value.charAt(i + 1) == '$') {
                if (depth == 0) {
                    out.append('$');
                }
                i++;
            } else if (c == '$' && i + 1 < value.length() && value.charAt(i + 1) == '{') {
                depth++;
                i++;
            } else if (c == '}' && depth > 0) {
                depth--;
            } else if (depth == 0) {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static void ownership(PipelineSpec spec, String file, List<DesignFinding> out) {
        if (spec.tier() == 0) {
            out.add(warn("reliability.tier", file, "tier", "no availability tier: declare tier 1 (99.9 %: 43.8 min of downtime in a 730-hour"
                    + " month), 2 (99.5 %: 3.65 h) or 3 (99.0 %: 7.3 h)"));
        }
        for (TableSpec t : spec.tables()) {
            if (t.layer() == Layer.BRONZE) {
                continue; // raw storage of the pipeline; the published datasets are Silver and Gold
            }
            DatasetPolicy p = spec.datasets().get(t.table());
            String at = "datasets." + t.table().qualifiedName();
            if (p == null) {
                out.add(warn("reliability.freshness", file, at, "dataset " + t.table() + " declares no update_interval and freshness_sla"
                        + " (> 1.5 × the interval): its freshness cannot be judged"));
                out.add(warn("ownership.owner", file, at + ".owner", "dataset " + t.table() + " has no owner: name the team that answers"
                        + " for it"));
            } else if (p.owner() == null || p.owner().isBlank()) {
                out.add(warn("ownership.owner", file, at + ".owner", "dataset " + t.table() + " has no owner: name the team that answers"
                        + " for it"));
            }
        }
    }

    private static DesignFinding error(String rule, String file, String at, String message) {
        return new DesignFinding(rule, Severity.ERROR, file, at, message);
    }

    private static DesignFinding warn(String rule, String file, String at, String message) {
        return new DesignFinding(rule, Severity.WARN, file, at, message);
    }
}
