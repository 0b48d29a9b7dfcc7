package dev.sluice.config;

import java.util.Locale;
import java.util.Optional;

/** File formats a source may land in. */
public enum SourceFormat {
    /** Apache Parquet. */
    PARQUET,
    /** RFC 4180 CSV with a header row, UTF-8. */
    CSV,
    /** A JSON document: an array of objects, at the top or at the source's {@code array_path}. */
    JSON,
    /** Newline-delimited JSON: one object per line. */
    NDJSON;

    /** Parses the spec spelling (case-insensitive); empty when unknown. */
    public static Optional<SourceFormat> parse(String text) {
        for (SourceFormat f : values()) {
            if (f.name().equalsIgnoreCase(text)) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }

    /** The spec spelling. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
