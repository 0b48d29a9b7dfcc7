package dev.sluice.config;

import dev.sluice.core.Partition;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A source of landed files.
 *
 * @param name the source name (e.g. {@code flights})
 * @param format the file format
 * @param pathTemplate the landing path, after env interpolation; for a partitioned source it holds
 *     {@code {partition}}, replaced by the partition key, unless the source is partitioned by a
 *     column. It names a file or a directory whose regular files (sorted by name, hidden files
 *     skipped) are all loaded.
 * @param partitioned false for a reference snapshot that every partition shares
 * @param contract the schema contract the files must satisfy
 * @param arrayPath for a JSON source, where the array of records is (a JSON pointer, e.g.
 *     {@code /features}); empty when the document itself is the array
 * @param partitionColumn for a source whose files hold many partitions (e.g. one feed file): the
 *     contract column (date or timestamp, read as UTC) whose day picks a row's partition; null
 *     when the path holds {@code {partition}}
 * @param pii the policy of each PII-tagged contract column, by column name
 * @param csv for a CSV source, its dialect ({@link CsvOptions#DEFAULT} for every other format)
 */
public record SourceSpec(String name, SourceFormat format, String pathTemplate, boolean partitioned,
        ContractSpec contract, String arrayPath, @Nullable String partitionColumn, Map<String, PiiPolicy> pii,
        CsvOptions csv) {

    /** The template placeholder for the partition key. */
    public static final String PARTITION_PLACEHOLDER = "{partition}";

    public SourceSpec {
        pii = Map.copyOf(pii);
        Objects.requireNonNull(csv, "csv");
    }

    /** A source with RFC 4180 CSV (or another format). */
    public SourceSpec(String name, SourceFormat format, String pathTemplate, boolean partitioned,
            ContractSpec contract, String arrayPath, @Nullable String partitionColumn, Map<String, PiiPolicy> pii) {
        this(name, format, pathTemplate, partitioned, contract, arrayPath, partitionColumn, pii, CsvOptions.DEFAULT);
    }

    /** A source partitioned by its path (or not at all), without PII. */
    public SourceSpec(String name, SourceFormat format, String pathTemplate, boolean partitioned,
            ContractSpec contract, String arrayPath) {
        this(name, format, pathTemplate, partitioned, contract, arrayPath, null, Map.of());
    }

    /** The landing path of {@code partition} (the template itself for an unpartitioned source). */
    public Path pathFor(Partition partition) {
        return Path.of(partitioned ? pathTemplate.replace(PARTITION_PLACEHOLDER, partition.key()) : pathTemplate);
    }

    /** The column that picks a row's partition, when the files are not split by partition. */
    public Optional<String> partitionColumnName() {
        return Optional.ofNullable(partitionColumn);
    }

    /** The policy of a column: its PII policy, or {@link PiiPolicy#KEEP} for a column not tagged PII. */
    public PiiPolicy policy(String column) {
        return pii.getOrDefault(column, PiiPolicy.KEEP);
    }
}
