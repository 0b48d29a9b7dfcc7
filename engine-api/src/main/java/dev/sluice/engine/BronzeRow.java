package dev.sluice.engine;

import dev.sluice.control.landing.LandedFile;

import org.jspecify.annotations.Nullable;

/**
 * A source row on its way into Bronze.
 *
 * @param values the contract's columns, in contract order (see {@code SourceRow})
 * @param source the file, as recorded in {@code _source} (relative to the Sluice home when under it)
 * @param position the 0-based row index in the file ({@code _source_pos})
 * @param rowHash SHA-256 (hex) of the values ({@code _row_hash}, see {@code RowHasher})
 * @param parseErrors {@code _parse_errors}: the row's contract violations as JSON (see
 *     {@code ParseErrors}), or null for a good row
 * @param completes non-null on the last row of a file: that file's load, to be marked LOADED in
 *     the same transaction that writes this row
 */
public record BronzeRow(Object[] values, String source, long position, String rowHash, @Nullable String parseErrors,
        @Nullable LandedFile completes) {
}
