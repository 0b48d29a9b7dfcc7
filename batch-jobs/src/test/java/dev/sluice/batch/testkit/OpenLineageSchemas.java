package dev.sluice.batch.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Validates OpenLineage events against the official schemas in {@code ../shared/fixtures/openlineage-spec/}
 * (networknt json-schema-validator, draft 2020-12, format assertions on), resolving the schemas'
 * versioned URLs to those files as the fixture's README says (nothing fetched), and Sluice's own
 * facet schema from the lineage jar. The core schema checks the event; each facet is checked
 * against its own file, as {@code {"<key>": facet}}.
 */
public final class OpenLineageSchemas {

    private final Path dir;
    private final JsonSchemaFactory factory;
    private final SchemaValidatorsConfig config = SchemaValidatorsConfig.builder().formatAssertionsEnabled(true).build();
    private final Map<String, JsonSchema> schemas = new ConcurrentHashMap<>();

    private OpenLineageSchemas(Path dir) {
        this.dir = dir;
        this.factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012, b -> b.schemaMappers(m -> m.mappings(s -> map(s) != null, this::map)));
    }

    /** The validator, or empty when the fixtures are absent (a user's clone without ../shared). */
    public static Optional<OpenLineageSchemas> find() {
        Path spec = TestHome.projectRoot().resolve("../shared/fixtures/openlineage-spec").normalize();
        return Files.isDirectory(spec) ? Optional.of(new OpenLineageSchemas(spec)) : Optional.empty();
    }

    private String map(String iri) {
        if (iri.startsWith("https://openlineage.io/spec/facets/")) {
            return dir.resolve("facets").resolve(iri.substring(iri.lastIndexOf('/') + 1)).toUri().toString();
        }
        if (iri.startsWith("https://openlineage.io/spec/") && iri.endsWith("/OpenLineage.json")) {
            return dir.resolve("OpenLineage.json").toUri().toString();
        }
        if (iri.startsWith("https://sluice.dev/spec/facets/")) {
            return "classpath:dev/sluice/lineage/" + iri.substring(iri.lastIndexOf('/') + 1);
        }
        return null;
    }

    private JsonSchema schema(String url) {
        return schemas.computeIfAbsent(url, u -> factory.getSchema(SchemaLocation.of(u), config));
    }

    /**
     * Every violation of {@code event}: the core schema's, then each facet's against its own
     * schema file (named by the facet's {@code _schemaURL}), as "path: message".
     */
    public List<String> violations(JsonNode event) {
        List<String> out = new ArrayList<>();
        schema("https://openlineage.io/spec/2-0-2/OpenLineage.json").validate(event).forEach(m -> out.add("core " + m));
        facets(event.path("run").path("facets"), "run", out);
        facets(event.path("job").path("facets"), "job", out);
        for (String side : List.of("inputs", "outputs")) {
            int i = 0;
            for (JsonNode d : event.path(side)) {
                facets(d.path("facets"), side + "[" + i + "]", out);
                facets(d.path("inputFacets"), side + "[" + i + "].inputFacets", out);
                facets(d.path("outputFacets"), side + "[" + i + "].outputFacets", out);
                i++;
            }
        }
        return out;
    }

    private void facets(JsonNode facets, String where, List<String> out) {
        for (Iterator<Map.Entry<String, JsonNode>> it = facets.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            String url = f.getValue().path("_schemaURL").asText();
            int hash = url.indexOf('#');
            String file = hash < 0 ? url : url.substring(0, hash);
            if (map(file) == null || (file.startsWith("https://openlineage.io/spec/facets/")
                    && !Files.isRegularFile(dir.resolve("facets").resolve(file.substring(file.lastIndexOf('/') + 1))))) {
                out.add(where + "." + f.getKey() + ": no schema file for " + url);
                continue;
            }
            ObjectNode wrapped = JsonNodeFactory.instance.objectNode();
            wrapped.set(f.getKey(), f.getValue());
            for (ValidationMessage m : schema(file).validate(wrapped)) {
                out.add(where + "." + f.getKey() + " " + m);
            }
        }
    }
}
