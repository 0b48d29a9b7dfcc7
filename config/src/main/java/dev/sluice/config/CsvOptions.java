package dev.sluice.config;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How a CSV source's files are written (the {@code csv:} map of a source). Whatever the dialect, a
 * file has a header row whose names are matched to the contract's columns ignoring case (a header
 * {@code ID,Name} is columns {@code id, name}; two names that differ only in case are refused), and
 * an empty field is NULL. Immutable and thread-safe.
 *
 * @param delimiter {@code delimiter}: the field separator, one character (default {@code ,}; e.g.
 *     {@code ;}, {@code |}, or a tab written {@code "\t"} in YAML double quotes)
 * @param quote {@code quote}: the character that encloses a field holding delimiters, quotes or
 *     line breaks (default {@code "}; inside a quoted field it is doubled, RFC 4180)
 * @param escape {@code escape}: a character that makes the next one literal inside a field (e.g.
 *     {@code \}); null (the default) for none
 * @param encoding {@code encoding}: the files' character set (default UTF-8; e.g. ISO-8859-1,
 *     windows-1252, UTF-16 with a byte-order mark); a leading byte-order mark is never data, and a
 *     byte sequence that is not valid in the encoding fails the file naming it
 * @param nullValues {@code null_values}: texts that also mean NULL, compared with the field as
 *     read (before any {@code trim}), e.g. {@code [NA, "\N"]}; default none
 */
public record CsvOptions(char delimiter, char quote, @Nullable Character escape, Charset encoding, List<String> nullValues) {

    /** RFC 4180 in UTF-8: comma, double quote, no escape, no NULL text but the empty field. */
    public static final CsvOptions DEFAULT = new CsvOptions(',', '"', null, StandardCharsets.UTF_8, List.of());

    public CsvOptions {
        Objects.requireNonNull(encoding, "encoding");
        nullValues = List.copyOf(nullValues);
        if (delimiter == quote || escape != null && (escape == delimiter || escape == quote)) {
            throw new IllegalArgumentException("delimiter, quote and escape are three different characters");
        }
        for (char c : escape == null ? new char[] {delimiter, quote} : new char[] {delimiter, quote, escape}) {
            if (c == '\n' || c == '\r') {
                throw new IllegalArgumentException("a line break cannot be a delimiter, quote or escape");
            }
        }
    }
}
