package dev.sluice.config;

import dev.sluice.core.Partition;
import java.nio.file.Path;

/**
 * A source of landed files.
 *
 * @param name the source name (e.g. {@code flights})
 * @param format the file format
 * @param pathTemplate the landing path, after env interpolation; for a partitioned source it holds
 *     {@code {partition}}, replaced by the partition key. It names a file or a directory whose
 *     regular files (sorted by name, hidden files skipped) are all loaded.
 * @param partitioned false for a reference snapshot that every partition shares
 * @param contract the schema contract the files must satisfy
 * @param arrayPath for a JSON source, where the array of records is (a JSON pointer, e.g.
 *     {@code /features}); empty when the document itself is the array
 */
public record SourceSpec(String name, SourceFormat format, String pathTemplate, boolean partitioned,
        ContractSpec contract, String arrayPath) {

    /** The template placeholder for the partition key. */
    public static final String PARTITION_PLACEHOLDER = "{partition}";

    /** The landing path of {@code partition} (the template itself for an unpartitioned source). */
    public Path pathFor(Partition partition) {
        return Path.of(partitioned ? pathTemplate.replace(PARTITION_PLACEHOLDER, partition.key()) : pathTemplate);
    }
}
