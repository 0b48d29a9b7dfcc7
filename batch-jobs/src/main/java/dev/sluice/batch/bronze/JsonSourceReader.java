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

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(com.fasterxml.jackson.core.JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    private final String displayName;
    private final List<ColumnSpec> columns;
    private final long maxLineChars;
    private final @Nullable Iterator<JsonNode> records;
    private final @Nullable BufferedReader lines;
    private long position;

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
        String line;
        try {
            do {
                line = lines.readLine();
            } while (line != null && line.isBlank());
        } catch (IOException e) {
            throw new BadInputException(displayName, position, null, "cannot read: " + e.getMessage(), e);
        }
        if (line == null) {
            return null;
        }
        if (position == 0 && line.startsWith("\uFEFF")) {
            line = line.substring(1);
        }
        if (line.length() > maxLineChars) {
            return failed(FieldError.of(null, line, "a line of " + line.length() + " characters, more than the "
                    + maxLineChars + " allowed"));
        }
        try {
            return row(JSON.readTree(line), line);
        } catch (JsonProcessingException e) {
            return failed(FieldError.of(null, line, "not valid JSON: " + e.getOriginalMessage()));
        }
    }

    private SourceRow failed(FieldError error) {
        return new SourceRow(new Object[columns.size()], position++, List.of(error));
    }

    private SourceRow row(JsonNode record, @Nullable String raw) {
        if (!record.isObject()) {
            return failed(FieldError.of(null, raw == null ? record.toString() : raw, "a record is a JSON object, not "
                    + record.getNodeType().name().toLowerCase()));
        }
        Object[] values = new Object[columns.size()];
        List<FieldError> errors = new ArrayList<>();
        for (int i = 0; i < values.length; i++) {
            ColumnSpec c = columns.get(i);
            JsonNode node = record.at(c.jsonPath());
            try {
                values[i] = JsonValues.of(node, c, displayName, position);
            } catch (BadInputException e) {
                errors.add(FieldError.of(c.name(), node.isTextual() ? node.asText() : node.toString(), e.reason()));
                continue;
            }
            if (values[i] == null && !c.nullable()) {
                errors.add(FieldError.of(c.name(), node.isMissingNode() ? "" : node.toString(),
                        (node.isMissingNode() ? "nothing at " + c.jsonPath() : "null") + " in a required column"));
            }
        }
        return new SourceRow(values, position++, errors);
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
