package dev.sluice.batch.contract;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.config.ColumnSpec;
import dev.sluice.config.SchemaDiff.FileColumn;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The columns of a JSON source's records, gathered record by record (see
 * {@link FileSchemas}): which contract columns' pointers find a value in some record, and which
 * top-level keys no contract column maps. Not thread-safe: one per file.
 */
final class JsonKeys {

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    private static final JsonFactory FACTORY = JSON.getFactory();

    private final List<ColumnSpec> contract;
    /** The first segment of each contract column's pointer ({@code properties} for {@code /properties/mag}). */
    private final Set<String> mapped = new HashSet<>();
    private final Set<String> present = new HashSet<>();
    private final Set<String> added = new LinkedHashSet<>();
    private boolean anyObject;

    JsonKeys(List<ColumnSpec> contract) {
        this.contract = contract;
        for (ColumnSpec c : contract) {
            String[] segments = c.jsonPath().split("/");
            mapped.add(segments.length > 1 ? segments[1] : "");
        }
    }

    /** One NDJSON line: a tree while a contract column is still unseen, else only its top-level keys. */
    void line(String text) {
        try {
            if (present.size() < contract.size()) {
                record(JSON.readTree(text));
            } else {
                topLevelKeys(text);
            }
        } catch (JsonProcessingException e) {
            // not JSON: the reader quarantines the line as a row
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One record of a JSON document or NDJSON line. */
    void record(JsonNode record) {
        if (record == null || !record.isObject()) {
            return;
        }
        anyObject = true;
        for (ColumnSpec c : contract) {
            if (!present.contains(c.name()) && !record.at(c.jsonPath()).isMissingNode()) {
                present.add(c.name());
            }
        }
        record.fieldNames().forEachRemaining(this::key);
    }

    /** The top-level keys of a line that is one whole JSON object (nothing of a line that is not). */
    private void topLevelKeys(String text) throws IOException {
        List<String> keys = new ArrayList<>();
        try (JsonParser p = FACTORY.createParser(text)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return;
            }
            JsonToken t = p.nextToken();
            for (; t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                keys.add(p.currentName());
                p.nextToken();
                p.skipChildren();
            }
            if (t != JsonToken.END_OBJECT || p.nextToken() != null) {
                return;
            }
        }
        anyObject = true;
        keys.forEach(this::key);
    }

    private void key(String key) {
        if (!mapped.contains(key)) {
            added.add(key);
        }
    }

    /** The contract columns found (every one when no record was an object), then the added keys. */
    List<FileColumn> columns() {
        List<FileColumn> columns = new ArrayList<>();
        for (ColumnSpec c : contract) {
            if (!anyObject || present.contains(c.name())) {
                columns.add(new FileColumn(c.name(), null));
            }
        }
        added.forEach(k -> columns.add(new FileColumn(k, null)));
        return columns;
    }
}
