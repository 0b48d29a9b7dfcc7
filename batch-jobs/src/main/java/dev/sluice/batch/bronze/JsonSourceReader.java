package dev.sluice.batch.bronze;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.config.ColumnSpec;
import dev.sluice.core.BadInputException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Reads JSON records: a JSON document's array of objects (at the top, or at a JSON pointer such
 * as a GeoJSON FeatureCollection's {@code /features}), or NDJSON, one object per line. Each column
 * is found in a record by its JSON pointer ({@link ColumnSpec#jsonPath()}), so nested fields map by
 * path. A record that is not an object, a line that is not JSON or is longer than the limit, and a
 * value not of its column's type become rows with {@link FieldError}s (quarantined at Silver).
 *
 * <p>A JSON document is parsed whole (its size bounds the memory used); NDJSON streams line by
 * line. Not thread-safe.
 */
final class JsonSourceReader implements SourceFileReader {

    private static final ObjectMapper JSON = JsonValues.MAPPER;

    private final String displayName;
    private final List<ColumnSpec> columns;
    private final long maxLineChars;
    private final @Nullable Iterator<JsonNode> records;
    private final @Nullable BufferedReader lines;
    private long position;
    /** NDJSON: the 1-based line number of the current record (0 for a JSON document). */
    private long line;

    private JsonSourceReader(String displayName, List<ColumnSpec> columns, long maxLineChars,
            @Nullable Iterator<JsonNode> records, @Nullable BufferedReader lines) {
        this.displayName = displayName;
        this.columns = columns;
        this.maxLineChars = maxLineChars;
        this.records = records;
        this.lines = lines;
    }

    /** A JSON document's records at {@code arrayPath} (empty: the document is the array). */
    static JsonSourceReader document(Path file, List<ColumnSpec> columns, String displayName, String arrayPath) {
        JsonNode root;
        try {
            root = JSON.readTree(file.toFile());
        } catch (JsonProcessingException e) {
            throw new BadInputException(displayName, -1, null, "not valid JSON at line " + e.getLocation().getLineNr()
                    + ", column " + e.getLocation().getColumnNr() + ": " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new BadInputException(displayName, -1, null, "cannot read: " + e.getMessage(), e);
        }
        JsonNode array = root == null ? null : arrayPath.isEmpty() ? root : root.at(arrayPath);
        if (array == null || !array.isArray()) {
            throw new BadInputException(displayName, -1, null, "no JSON array at "
                    + (arrayPath.isEmpty() ? "the top of the document" : arrayPath));
        }
        return new JsonSourceReader(displayName, columns, Long.MAX_VALUE, array.elements(), null);
    }

    /** NDJSON: one record per non-blank line. */
    static JsonSourceReader lines(Path file, List<ColumnSpec> columns, String displayName, long maxLineChars) {
        try {
            return new JsonSourceReader(displayName, columns, maxLineChars, null,
                    Files.newBufferedReader(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new BadInputException(displayName, -1, null, "cannot read: " + e.getMessage(), e);
        }
    }

    @Override
    public @Nullable SourceRow next() {
        if (records != null) {
            return records.hasNext() ? row(records.next(), null) : null;
        }
        String text;
        try {
            do {
                text = lines.readLine();
                line++;
            } while (text != null && text.isBlank());
        } catch (IOException e) {
            throw new BadInputException(displayName, position, null, "cannot read (line " + line + "): "
                    + LandingFiles.reason(e), e);
        }
        if (text == null) {
            return null;
        }
        if (line == 1 && text.startsWith("\uFEFF")) {
            text = text.substring(1);
        }
        if (text.length() > maxLineChars) {
            return failed(FieldError.of(null, text, "a line of " + text.length() + " characters, more than the "
                    + maxLineChars + " allowed" + where()));
        }
        try {
            return row(JSON.readTree(text), text);
        } catch (JsonProcessingException e) {
            return failed(FieldError.of(null, text, "not valid JSON: " + e.getOriginalMessage() + where()));
        }
    }

    private SourceRow failed(FieldError error) {
        return new SourceRow(new Object[columns.size()], position++, List.of(error));
    }

    private SourceRow row(JsonNode record, @Nullable String raw) {
        if (!record.isObject()) {
            return failed(FieldError.of(null, raw == null ? record.toString() : raw, "the record is a JSON "
                    + record.getNodeType().name().toLowerCase(Locale.ROOT) + ", not an object" + where()));
        }
        Object[] values = new Object[columns.size()];
        List<FieldError> errors = new ArrayList<>();
        for (int i = 0; i < values.length; i++) {
            ColumnSpec c = columns.get(i);
            JsonNode node = record.at(c.jsonPath());
            try {
                values[i] = JsonValues.of(node, c, displayName, position);
            } catch (BadInputException e) {
                errors.add(FieldError.of(c.name(), node.isTextual() ? node.asText() : node.toString(), e.reason() + where()));
                continue;
            }
            if (values[i] == null && !c.nullable()) {
                errors.add(FieldError.of(c.name(), node.isMissingNode() ? "" : node.toString(),
                        (node.isMissingNode() ? "nothing at " + c.jsonPath() : "null") + " in a required column" + where()));
            }
        }
        return new SourceRow(values, position++, errors);
    }

    /** Where the current record is, for reasons: its NDJSON line, or nothing for a JSON document (the row position says it). */
    private String where() {
        return lines == null ? "" : " (line " + line + ")";
    }

    @Override
    public void close() {
        if (lines != null) {
            try {
                lines.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
