package dev.sluice.config;

import dev.sluice.core.DatasetRef;
import dev.sluice.core.Layer;
import dev.sluice.core.PartitionKind;
import java.time.Period;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Reads {@code layers:} into the pipeline's {@link TableSpec}s, reporting every problem with its
 * key path:
 * <pre>
 * layers:                               # required, with bronze, silver and gold (none of them empty)
 *   bronze:
 *     - table: bronze.flights_raw       # required; schema bronze; declared once
 *       source: flights                 # required; a source of this spec
 *       retention: P400D                # optional: raw rows are kept at least this long (a positive ISO-8601 period)
 *       checks: [...]                   # the source gate ({@link CheckReader})
 *   silver:                             # gold: the same keys, without quarantine
 *     - table: silver.flights           # required; schema silver (gold: gold); declared once
 *       input: bronze.flights_raw       # required; a table declared before this one
 *       partition: daily                # default: the pipeline's partitioning; none: a reference snapshot;
 *                                       #   Gold also a coarser kind than the pipeline's (a rollup)
 *       write: overwrite-partition      # default; or merge-on-key (needs key; not for a rollup)
 *       key: [flight_ts, origin]        # required (may be empty); columns of the table
 *       columns: {flight_ts: timestamp} # required, at least one; name: type ({@link ColumnType}, decimal(p,s))
 *       sql: SELECT … FROM {input} f    # required; reads its input only through {input}; may use {partition}
 *       quarantine: [...]               # Silver only ({@link QuarantineRuleReader})
 *       checks: [...]                   # the transform (Silver) or sink (Gold) gate
 * </pre>
 * Every table also takes a {@code description}; a Bronze table takes {@code write}, which is not
 * read (Bronze only appends: docs/spec.md calls {@code append} its only mode). Column names are {@link ContractLoader#IDENTIFIER_RULE} and no
 * reserved word of H2 or PostgreSQL ({@link SqlIdentifiers}). Problems are added to the cursor's
 * list; nothing is thrown for bad content. A table whose {@code table}, {@code input} or
 * {@code sql} cannot be read (for Bronze: whose source is not valid) is left out of the result.
 *
 * <p>Not thread-safe: one instance reads the layers of one spec once; it remembers the tables
 * declared so far (inputs must come before the tables that read them), the snapshots and the
 * rollups.
 */
final class LayerReader {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([a-zA-Z_]*)}");
    /** {@code bronze.t}, quoted or not ({@code "BRONZE"."T"}, {@code `bronze`.`t`}, {@code sluice.bronze.t}). */
    private static final Pattern BRONZE_REFERENCE = Pattern.compile("(?i)[`\"]?\\bbronze[`\"]?\\s*\\.\\s*[`\"]?[a-z_][a-z0-9_]*[`\"]?");
    /**
     * SQL that reads files itself, past {@code {input}}: Spark's {@code parquet.`/path`} (and csv,
     * json, orc, text, avro, binaryFile), H2's {@code CSVREAD(…)} and {@code FILE_READ(…)}.
     */
    private static final Pattern FILE_READ = Pattern.compile(
            "(?i)\\b(?:(?:parquet|csv|json|orc|text|avro|binaryfile)\\s*\\.\\s*`|(?:csvread|file_read)\\s*\\()");
    private static final Set<String> SQL_PLACEHOLDERS = Set.of("input", "partition");

    private final YamlCursor root;
    private final Map<String, SourceSpec> sources;
    private final List<TableSpec> tables = new ArrayList<>();
    private final Set<String> declaredSources;
    private final Set<DatasetRef> declared = new HashSet<>();
    private final Set<DatasetRef> rollups = new HashSet<>();
    private final Set<DatasetRef> snapshots = new HashSet<>();
    private final PartitionKind pipelineKind;

    /**
     * @param root the spec's root
     * @param sources the valid sources, by name
     * @param declaredSources every source name in the file, valid or not: a table on an invalid
     *     source is not reported again
     * @param pipelineKind the pipeline's partitioning
     */
    LayerReader(YamlCursor root, Map<String, SourceSpec> sources, Set<String> declaredSources, PartitionKind pipelineKind) {
        this.root = root;
        this.sources = sources;
        this.declaredSources = declaredSources;
        this.pipelineKind = pipelineKind;
    }

    /** True when partitions of {@code rollup} are whole unions of partitions of {@code of} (month ⊃ day ⊃ hour). */
    private static boolean coarser(PartitionKind rollup, PartitionKind of) {
        return switch (of) {
            case HOURLY -> rollup == PartitionKind.DAILY || rollup == PartitionKind.MONTHLY;
            case DAILY -> rollup == PartitionKind.MONTHLY;
            default -> false;
        };
    }

    /** The rollup kinds a Gold table of this pipeline may declare, for messages. */
    private String rollupKinds(PartitionKind of) {
        List<String> kinds = new ArrayList<>();
        for (PartitionKind k : PartitionKind.values()) {
            if (coarser(k, of)) {
                kinds.add(k.id());
            }
        }
        return kinds.isEmpty() ? "" : ", or a rollup: " + String.join(", ", kinds);
    }

    /** The valid tables in run order: Bronze, then Silver, then Gold, each in declaration order. */
    List<TableSpec> tables() {
        root.map("layers", true).ifPresent(layers -> {
            layers.allowOnly(Set.of("bronze", "silver", "gold"));
            for (Layer layer : Layer.values()) {
                List<YamlCursor> items = layers.list(layer.id(), true);
                if (items.isEmpty() && layers.has(layer.id())) {
                    layers.problem(layer.id(), "[]", "each layer needs at least one table");
                }
                items.forEach(t -> table(layer, t));
            }
        });
        return tables;
    }

    private void table(Layer layer, YamlCursor t) {
        Set<String> allowed = layer == Layer.BRONZE
                ? Set.of("table", "source", "description", "checks", "write", "retention")
                : layer == Layer.SILVER
                        ? Set.of("table", "input", "partition", "write", "key", "columns", "sql", "quarantine", "description", "checks")
                        : Set.of("table", "input", "partition", "write", "key", "columns", "sql", "description", "checks");
        t.allowOnly(allowed);
        Optional<DatasetRef> ref = t.text("table", true).flatMap(r -> parseRef(t, "table", r));
        ref.filter(r -> !r.schema().equals(layer.id()))
                .ifPresent(r -> t.problem("table", r.qualifiedName(), "a " + layer.id() + " table lives in schema " + layer.id()));
        ref.filter(r -> !declared.add(r)).ifPresent(r -> t.problem("table", r.qualifiedName(), "declared twice"));
        if (layer == Layer.BRONZE) {
            Optional<SourceSpec> source = t.text("source", true).flatMap(s -> {
                Optional<SourceSpec> found = Optional.ofNullable(sources.get(s));
                if (found.isEmpty() && !declaredSources.contains(s)) {
                    t.problem("source", s, "no such source; declared: " + String.join(", ", declaredSources));
                }
                return found;
            });
            Map<String, ColumnType> known = new LinkedHashMap<>();
            source.ifPresent(src -> src.contract().columns().forEach(col -> known.put(col.name(), col.type())));
            known.putAll(MetadataColumns.BRONZE);
            // without the source (its contract missing or invalid: reported already) the columns are unknown
            List<CheckSpec> checks = CheckReader.checks(t, known, source.isPresent());
            source.ifPresent(s -> partitionChecksNeedAPartition(t, checks, s.partitioned()));
            if (ref.isPresent() && source.isPresent()) {
                SourceSpec s = source.get();
                if (!s.partitioned()) {
                    snapshots.add(ref.get());
                }
                tables.add(new TableSpec(layer, ref.get(), s.name(), null, s.partitioned(), List.of(),
                        s.contract().columns(), "", List.of(), checks, null, false, retention(t)));
            }
            return;
        }
        Optional<DatasetRef> input = t.text("input", true).flatMap(i -> parseRef(t, "input", i));
        input.filter(i -> !declared.contains(i) || ref.map(i::equals).orElse(false)).ifPresent(i ->
                t.problem("input", i.qualifiedName(), "the input must be a table declared before this one"));
        String partitionText = t.text("partition", false).orElse(pipelineKind.id());
        boolean partitioned = !partitionText.equals("none");
        PartitionKind rollup = null;
        if (partitioned && !partitionText.equals(pipelineKind.id())) {
            var kind = PartitionKind.of(partitionText).filter(k -> coarser(k, pipelineKind));
            if (kind.isEmpty() || layer != Layer.GOLD) {
                t.problem("partition", partitionText, "one of " + pipelineKind.id() + " (the pipeline's partitioning), none (a reference"
                        + " snapshot)" + (layer == Layer.GOLD ? rollupKinds(pipelineKind) : ""));
            } else {
                rollup = kind.get();
            }
        }
        Optional<DatasetRef> rolledUp = input.filter(rollups::contains);
        rolledUp.ifPresent(i -> t.problem("input", i.qualifiedName(), "a rollup table (partitioned more coarsely than the pipeline)"
                + " cannot be the input of another table"));
        if (rollup != null) {
            input.filter(snapshots::contains).ifPresent(i -> t.problem("input", i.qualifiedName(),
                    "a rollup sums partitions of its input; " + i.qualifiedName() + " is a snapshot (partition: none)"));
            ref.ifPresent(rollups::add);
        }
        if (!partitioned) {
            ref.ifPresent(snapshots::add);
        }
        String write = t.text("write", false).orElse("overwrite-partition");
        if (!write.equals("overwrite-partition") && !write.equals("merge-on-key")) {
            t.problem("write", write, "overwrite-partition or merge-on-key");
        }
        List<ColumnSpec> columns = columns(t);
        List<String> key = new ArrayList<>();
        for (YamlCursor k : t.list("key", true)) {
            k.scalar().ifPresent(name -> {
                if (columns.stream().noneMatch(col -> col.name().equals(name))) {
                    k.problemHere(name, "a key column must be one of the table's columns");
                }
                key.add(name);
            });
        }
        Optional<String> sql = t.text("sql", true);
        sql.ifPresent(s -> checkSql(t, s));
        List<QuarantineRule> rules = layer == Layer.SILVER ? QuarantineRuleReader.rules(t) : List.of();
        Map<String, ColumnType> known = new LinkedHashMap<>();
        columns.forEach(col -> known.put(col.name(), col.type()));
        known.putAll(MetadataColumns.REFINED);
        List<CheckSpec> checks = CheckReader.checks(t, known);
        partitionChecksNeedAPartition(t, checks, partitioned);
        if (write.equals("merge-on-key") && key.isEmpty()) {
            t.problem("write", write, "merge-on-key upserts by the table's key: declare key");
        }
        if (write.equals("merge-on-key") && rollup != null) {
            t.problem("write", write, "a rollup is rebuilt from its input partitions: overwrite-partition");
        }
        if (ref.isPresent() && input.isPresent() && sql.isPresent()) {
            tables.add(new TableSpec(layer, ref.get(), null, input.get(), partitioned, key, columns,
                    sql.get().strip(), rules, checks, rollup, write.equals("merge-on-key"), null));
        }
    }

    /** Bronze {@code retention}: an ISO-8601 period (P400D, P2Y), or null. */
    private static @Nullable Period retention(YamlCursor t) {
        return t.text("retention", false).map(r -> {
            try {
                Period p = Period.parse(r);
                if (p.isNegative() || p.isZero()) {
                    t.problem("retention", r, "a retention is a positive ISO-8601 period, e.g. P400D");
                }
                return p;
            } catch (DateTimeParseException e) {
                t.problem("retention", r, "not an ISO-8601 period (PnYnMnD, e.g. P400D or P2Y)");
                return null;
            }
        }).orElse(null);
    }

    /** Silver/Gold {@code columns}: name → type, in order; a column with a bad name or type is left out. */
    private static List<ColumnSpec> columns(YamlCursor t) {
        List<ColumnSpec> columns = new ArrayList<>();
        List<Map.Entry<String, YamlCursor>> entries = t.entries("columns", true);
        if (entries.isEmpty() && t.has("columns")) {
            t.problem("columns", "{}", "a table needs at least one column");
        }
        for (Map.Entry<String, YamlCursor> e : entries) {
            String name = e.getKey();
            if (!ContractLoader.IDENTIFIER.matcher(name).matches()) {
                e.getValue().problemHere(name, "a column name is " + ContractLoader.IDENTIFIER_RULE + " (leading _ is reserved for metadata)");
                continue;
            }
            if (SqlIdentifiers.isReserved(name)) {
                e.getValue().problemHere(name, "a reserved word in H2 or PostgreSQL SQL; choose another name");
                continue;
            }
            e.getValue().scalar().ifPresent(type -> {
                Optional<DecimalSpec> decimal = ContractLoader.decimal(e.getValue(), null, type);
                if (decimal.isPresent()) {
                    columns.add(ColumnSpec.decimal(name, decimal.get(), true));
                } else if (ColumnType.parse(type).isPresent() && ColumnType.parse(type).get() == ColumnType.DECIMAL) {
                    e.getValue().problemHere(type, "a decimal has a precision and scale: decimal(p,s), e.g. decimal(12,2)");
                } else if (!type.strip().toLowerCase(Locale.ROOT).startsWith("decimal(")) {
                    ColumnType.parse(type).ifPresentOrElse(ty -> columns.add(new ColumnSpec(name, ty, true)),
                            () -> e.getValue().problemHere(type, "unknown type; one of " + ContractLoader.typeList()));
                }
            });
        }
        return columns;
    }

    /**
     * Checks the {@code {…}} placeholders of a layer's SQL: it reads {@code {input}}, names no
     * Bronze table directly, and uses no placeholder but {@code {input}} and {@code {partition}}.
     */
    private static void checkSql(YamlCursor t, String sql) {
        if (!sql.contains("{input}")) {
            t.problem("sql", YamlCursor.abbreviate(sql), "the SELECT reads its input through {input}");
        }
        Matcher bronze = BRONZE_REFERENCE.matcher(sql);
        if (bronze.find()) {
            t.problem("sql", bronze.group(), "a Silver/Gold SELECT reads Bronze only through {input}, where quarantine"
                    + " and PII policies apply; reading a Bronze table directly could copy raw (personal) data");
        }
        Matcher files = FILE_READ.matcher(sql);
        if (files.find()) {
            t.problem("sql", files.group(), "a Silver/Gold SELECT reads its input only through {input}; reading files directly"
                    + " would bypass the contract, quarantine and PII policies");
        }
        Matcher m = PLACEHOLDER.matcher(sql);
        while (m.find()) {
            if (!SQL_PLACEHOLDERS.contains(m.group(1))) {
                t.problem("sql", m.group(), "unknown placeholder; the SQL may use {input} and {partition}");
            }
        }
    }

    /**
     * {@code expect_column_values_to_be_in_partition} and {@code expect_partition_to_be_fresh} judge
     * values against the partition's nominal time, which a snapshot ({@code partition: none}, an
     * unpartitioned source) has not: such a check failed (or warned) on every run at its gate ("the
     * partition has no nominal time"); it is refused here.
     */
    private static void partitionChecksNeedAPartition(YamlCursor t, List<CheckSpec> checks, boolean partitioned) {
        if (partitioned) {
            return;
        }
        checks.stream().filter(c -> c.expectation() == Expectation.EXPECT_COLUMN_VALUES_TO_BE_IN_PARTITION
                        || c.expectation() == Expectation.EXPECT_PARTITION_TO_BE_FRESH)
                .forEach(c -> t.problem("checks", c.id(), c.expectation().id() + " judges values against the partition's dates;"
                        + " this table is a snapshot (partition: none, or an unpartitioned source) and has none"));
    }

    private static Optional<DatasetRef> parseRef(YamlCursor t, String key, String text) {
        try {
            DatasetRef ref = DatasetRef.parse(text);
            SqlIdentifiers.reservedName(ref).ifPresent(reason -> t.problem(key, text, reason));
            return Optional.of(ref);
        } catch (IllegalArgumentException e) {
            t.problem(key, text, "expected schema.table with lower-case identifiers");
            return Optional.empty();
        }
    }
}
