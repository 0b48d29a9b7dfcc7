package dev.sluice.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads {@code sources:}, the landed files a pipeline loads ({@link SourceSpec}), and the contract
 * file each one names:
 * <pre>
 * sources:                                 # required
 *   - name: flights                        # required; unique; at most 100 characters
 *     format: parquet                      # required: parquet, csv, json or ndjson
 *     path: ${SLUICE_HOME}/landing/flights/dt={partition}
 *                                          # required: a file or a folder; a partitioned source's path holds
 *                                          #   {partition} unless it names a partition_column, another's never does
 *     partitioned: true                    # default true; false: a reference snapshot every partition shares
 *     partition_column: death_date         # optional: a date or timestamp column of the contract whose day
 *                                          #   picks each row's partition (partitioned sources only)
 *     contract: contracts/flights.v1.yaml  # required: a contract file, relative to the spec's folder ({@link ContractLoader})
 *     array_path: /features                # json: a JSON pointer (RFC 6901) to the records; default "": the document is the array
 *     csv: {delimiter: ';'}                # csv: the dialect ({@link CsvOptionsReader})
 *     pii: {first_name: hash}              # a policy per PII column of the contract ({@link PiiReader}); the
 *                                          #   partition column can only be kept
 *     description: …
 * </pre>
 * Problems (the contracts' among them) are added to the cursor's list with their key paths;
 * nothing is thrown for bad content. A source whose name, format, path or contract cannot be read
 * is left out of the result; {@link #declaredNames} still names it, so that what refers to it is
 * not reported again.
 *
 * <p>Not thread-safe: one instance reads the sources of one spec and remembers the contract files
 * it read, for the spec's hash.
 */
final class SourceReader {

    /** The longest source name ({@code sluice.schema_drift.source} is VARCHAR(100)). */
    static final int MAX_SOURCE_NAME = 100;

    private final ContractLoader contracts;
    private final Path dir;
    private final List<Path> contractFiles = new ArrayList<>();

    /**
     * @param env the environment the contracts are interpolated with
     * @param dir the spec's folder, which contract paths are relative to
     */
    SourceReader(EnvInterpolator env, Path dir) {
        this.contracts = new ContractLoader(env);
        this.dir = dir;
    }

    /** The valid sources, by name in declaration order; reads every contract they name. */
    Map<String, SourceSpec> read(YamlCursor c) {
        Map<String, SourceSpec> sources = new LinkedHashMap<>();
        for (YamlCursor s : c.list("sources", true)) {
            s.allowOnly(Set.of("name", "format", "path", "contract", "partitioned", "partition_column", "array_path", "pii",
                    "description", "csv"));
            String arrayPath = s.text("array_path", false).orElse("");
            if (!arrayPath.isEmpty() && !arrayPath.startsWith("/")) {
                s.problem("array_path", arrayPath, "a JSON pointer starting with / (RFC 6901), e.g. /features");
            }
            Optional<String> name = s.text("name", true);
            name.filter(n -> n.length() > MAX_SOURCE_NAME).ifPresent(n -> s.problem("name", n,
                    "a source name has at most " + MAX_SOURCE_NAME + " characters"));
            Optional<SourceFormat> format = s.text("format", true).flatMap(f -> {
                Optional<SourceFormat> parsed = SourceFormat.parse(f);
                if (parsed.isEmpty()) {
                    s.problem("format", f, "unknown format; one of parquet, csv, json, ndjson");
                }
                return parsed;
            });
            CsvOptions csv = CsvOptionsReader.read(s, format.orElse(null));
            boolean partitioned = s.text("partitioned", false).map(v -> {
                if (!v.equals("true") && !v.equals("false")) {
                    s.problem("partitioned", v, "true or false");
                }
                return !v.equals("false");
            }).orElse(true);
            Optional<String> path = s.text("path", true);
            Optional<String> partitionColumn = s.text("partition_column", false);
            partitionColumn.filter(pc -> !partitioned)
                    .ifPresent(pc -> s.problem("partition_column", pc, "an unpartitioned source (partitioned: false) has no partition column"));
            path.ifPresent(p -> {
                if (partitionColumn.isPresent()) {
                    if (p.contains(SourceSpec.PARTITION_PLACEHOLDER)) {
                        s.problem("path", p, "a source partitioned by partition_column reads the same files for every partition; drop {partition}");
                    }
                } else if (partitioned && !p.contains(SourceSpec.PARTITION_PLACEHOLDER)) {
                    s.problem("path", p, "a partitioned source's path holds {partition} (or name a date column in partition_column)");
                } else if (!partitioned && p.contains(SourceSpec.PARTITION_PLACEHOLDER)) {
                    s.problem("path", p, "an unpartitioned source (partitioned: false) cannot hold {partition}");
                }
            });
            Optional<ContractSpec> contract = s.text("contract", true).flatMap(f -> {
                Path file = dir.resolve(f).normalize();
                if (!Files.isRegularFile(file)) {
                    s.problem("contract", f, "no such contract file (" + file + "; a contract path is relative to the spec's folder)");
                    return Optional.empty();
                }
                contractFiles.add(file);
                return contracts.load(file, s.problemsSink());
            });
            contract.ifPresent(ct -> partitionColumn.ifPresent(pc -> {
                Optional<ColumnSpec> col = ct.columns().stream().filter(cs -> cs.name().equals(pc)).findFirst();
                if (col.isEmpty()) {
                    s.problem("partition_column", pc, "not a column of contract " + ct.label());
                } else if (col.get().type() != ColumnType.DATE && col.get().type() != ColumnType.TIMESTAMP) {
                    s.problem("partition_column", pc, "a partition column is a date or timestamp; " + pc + " is " + col.get().type().id());
                }
            }));
            Map<String, PiiPolicy> pii = contract.map(ct -> PiiReader.policies(s, ct)).orElse(Map.of());
            partitionColumn.filter(pc -> pii.containsKey(pc) && pii.get(pc) != PiiPolicy.KEEP).ifPresent(pc ->
                    s.problem("pii", pc, "the partition column " + pc + " picks each row's day and Silver partitions by it;"
                            + " it cannot be " + switch (pii.get(pc)) {
                                case HASH -> "hashed";
                                case MASK -> "masked";
                                default -> "dropped";
                            } + " (keep it, or partition by another column)"));
            name.ifPresent(n -> {
                if (sources.containsKey(n)) {
                    s.problem("name", n, "duplicate source name");
                } else if (format.isPresent() && path.isPresent() && contract.isPresent()) {
                    sources.put(n, new SourceSpec(n, format.get(), path.get(), partitioned, contract.get(), arrayPath,
                            partitionColumn.orElse(null), pii, csv));
                }
            });
        }
        return sources;
    }

    /** The contract files read so far, in the order the sources name them (repeats included). */
    List<Path> contractFiles() {
        return contractFiles;
    }

    /**
     * Every source name in the file, valid or not. A second pass over {@code sources:}: a problem
     * of the list itself or of a name's value is reported a second time.
     */
    static Set<String> declaredNames(YamlCursor c) {
        Set<String> declared = new HashSet<>();
        c.list("sources", false).forEach(s -> s.text("name", false).ifPresent(declared::add));
        return declared;
    }
}
