package dev.sluice.config;

import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Reads a source's {@code csv:} map into {@link CsvOptions}, reporting each bad key as a problem
 * (file, key path, value, reason) with the spec's others. Stateless.
 */
final class CsvOptionsReader {

    private CsvOptionsReader() {
    }

    /**
     * {@code sources[i].csv}: the dialect of a CSV source ({@link CsvOptions}); every key optional,
     * the map only for format csv. Each bad key is a problem.
     */
    static CsvOptions read(YamlCursor s, @Nullable SourceFormat format) {
        Optional<YamlCursor> m = s.map("csv", false);
        if (m.isEmpty()) {
            return CsvOptions.DEFAULT;
        }
        YamlCursor c = m.get();
        if (format != null && format != SourceFormat.CSV) {
            s.problem("csv", "{…}", "CSV options apply to format csv; this source is " + format.id());
        }
        c.allowOnly(Set.of("delimiter", "quote", "escape", "encoding", "null_values"));
        char delimiter = oneChar(c, "delimiter").orElse(CsvOptions.DEFAULT.delimiter());
        char quote = oneChar(c, "quote").orElse(CsvOptions.DEFAULT.quote());
        Character escape = oneChar(c, "escape").orElse(null);
        Charset encoding = c.text("encoding", false).map(e -> {
            try {
                return Charset.forName(e.strip());
            } catch (IllegalArgumentException unknown) {
                c.problem("encoding", e, "not a character set this JVM knows; e.g. UTF-8, ISO-8859-1, windows-1252, UTF-16");
                return null;
            }
        }).orElse(CsvOptions.DEFAULT.encoding());
        List<String> nullValues = new ArrayList<>();
        for (YamlCursor v : c.list("null_values", false)) {
            if (v.isNullValue()) {
                v.problemHere("null", "YAML reads an unquoted null or ~ as no value; quote the text, e.g. 'null'");
                continue;
            }
            v.scalar().ifPresent(text -> {
                if (text.isEmpty()) {
                    v.problemHere("''", "an empty field is always NULL; list the other texts that mean NULL");
                } else {
                    nullValues.add(text);
                }
            });
        }
        try {
            return new CsvOptions(delimiter, quote, escape, encoding == null ? CsvOptions.DEFAULT.encoding() : encoding, nullValues);
        } catch (IllegalArgumentException e) {
            c.problem(null, "delimiter " + delimiter + ", quote " + quote + ", escape " + escape, e.getMessage());
            return CsvOptions.DEFAULT;
        }
    }

    /** A one-character option; a problem (and empty) for any other length. */
    private static Optional<Character> oneChar(YamlCursor c, String key) {
        return c.text(key, false).flatMap(t -> {
            if (t.length() != 1) {
                c.problem(key, t, "one character (a tab is \"\\t\" in double quotes)");
                return Optional.empty();
            }
            return Optional.of(t.charAt(0));
        });
    }
}
