package dev.sluice.config;

import java.util.Locale;
import java.util.Optional;

/** File formats a source may land in. */
public enum SourceFormat {
    PARQUET,
    /** RFC 4180 CSV with a header row, UTF-8. */
    CSV;

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
