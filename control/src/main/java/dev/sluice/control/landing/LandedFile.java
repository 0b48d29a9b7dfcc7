package dev.sluice.control.landing;

import java.nio.file.Path;

/**
 * One landed file of a partition, identified by its content.
 *
 * @param path the file on disk
 * @param source the name recorded in {@code _source} and {@code sluice.landed_file.source}
 * @param sha256 SHA-256 (hex) of the file's bytes
 * @param sizeBytes the file's size in bytes
 * @param rows rows in the file: known once it has been read to the end, else -1
 */
public record LandedFile(Path path, String source, String sha256, long sizeBytes, long rows) {

    /** This file with its row count. */
    public LandedFile withRows(long count) {
        return new LandedFile(path, source, sha256, sizeBytes, count);
    }
}
