package dev.sluice.lineage.store;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The column lineage of an output dataset in another tool's event: its {@code columnLineage} facet
 * (OpenLineage ColumnLineageDatasetFacet), one row per output column, input field and
 * transformation. The 1-2-0 shape gives each input field {@code transformations} of type (DIRECT,
 * INDIRECT), subtype (IDENTITY, TRANSFORMATION, AGGREGATION, FILTER, JOIN…), description and
 * masking; the older shape gives the output column a {@code transformationType} (IDENTITY, or
 * MASKED: masking) and {@code transformationDescription}, read as one DIRECT transformation. The
 * facet's dataset-wide {@code dataset} list (fields that affect every column) is not read. Stateless.
 */
final class ForeignColumns {

    /**
     * One column edge: {@code outputColumn} is built from {@code inputField} of the dataset
     * ({@code inputNamespace}, {@code inputName}) by a transformation of {@code type}.
     */
    record Row(String outputColumn, String inputNamespace, String inputName, String inputField, String type, @Nullable String subtype,
            @Nullable String description, boolean masking) {
    }

    private ForeignColumns() {
    }

    /** The rows of {@code output}'s {@code columnLineage} facet; empty without one. */
    static List<Row> of(JsonNode output) {
        List<Row> rows = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = output.path("facets").path("columnLineage").path("fields").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> column = it.next();
            JsonNode c = column.getValue();
            String oldType = text(c.path("transformationType"));
            for (JsonNode in : c.path("inputFields")) {
                String ns = in.path("namespace").asText();
                String name = in.path("name").asText();
                String field = in.path("field").asText();
                if (in.path("transformations").isArray() && !in.path("transformations").isEmpty()) {
                    for (JsonNode t : in.path("transformations")) {
                        rows.add(new Row(column.getKey(), ns, name, field, t.path("type").asText("DIRECT"), text(t.path("subtype")),
                                text(t.path("description")), t.path("masking").asBoolean(false)));
                    }
                } else {
                    boolean masked = "MASKED".equals(oldType);
                    rows.add(new Row(column.getKey(), ns, name, field, "DIRECT", masked ? null : oldType,
                            text(c.path("transformationDescription")), masked));
                }
            }
        }
        return rows;
    }

    private static @Nullable String text(JsonNode n) {
        return n.isTextual() ? n.asText() : null;
    }
}
