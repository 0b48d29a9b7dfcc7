package dev.sluice.lineage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.PathType;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * Validates an OpenLineage event against the official schemas shipped in the lineage jar
 * ({@code dev/sluice/lineage/spec}: core 2-0-2 and 13 facets; networknt json-schema-validator,
 * draft 2020-12, format assertions on): the core schema for the event, then each facet (the core
 * schema checks only that a facet has {@code _producer} and {@code _schemaURL}) by the schema of
 * its KEY where it stands ({@link KnownFacets}: a dataset facet under {@code schema} is a
 * SchemaDatasetFacet, a run facet under {@code errorMessage} an ErrorMessageRunFacet, whatever its
 * {@code _schemaURL} says), and also by the schema its {@code _schemaURL} names when that is
 * shipped and another one (a message then ends "(by its _schemaURL, File.json)"). Versioned URLs
 * resolve to the shipped files by file name; nothing is fetched. Thread-safe.
 */
public final class EventValidator {

    private final String base;
    private final boolean strict;
    private final Predicate<String> exists;
    private final JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012,
            b -> b.schemaMappers(m -> m.mappings(s -> map(s) != null, this::map)));
    private final SchemaValidatorsConfig config = SchemaValidatorsConfig.builder().formatAssertionsEnabled(true)
            .pathType(PathType.JSON_PATH).build();
    private final Map<String, JsonSchema> schemas = new ConcurrentHashMap<>();
    private final KnownFacets known;
    private static final String FACETS = "https://openlineage.io/spec/facets/";

    /**
     * A validator on the schemas shipped in the lineage jar, for events from other tools: a facet
     * whose schema is not shipped (a producer's custom facet) is checked by the core schema only.
     */
    public EventValidator() {
        this.base = "classpath:dev/sluice/lineage/spec/";
        this.strict = false;
        this.exists = mapped -> EventValidator.class.getClassLoader().getResource(mapped.substring("classpath:".length())) != null;
        this.known = KnownFacets.shipped();
    }

    /**
     * A validator on the schemas in {@code specDir} ({@code OpenLineage.json} and
     * {@code facets/*.json}), e.g. the conformance fixtures; a facet without a schema file there is
     * itself a violation (Sluice's own events must have one for each facet).
     */
    public EventValidator(Path specDir) {
        this.base = specDir.toUri().toString();
        this.strict = true;
        this.exists = mapped -> !mapped.startsWith("file:") || Files.isRegularFile(Path.of(URI.create(mapped)));
        this.known = KnownFacets.in(specDir.resolve("facets"));
    }

    private String map(String iri) {
        if (iri.startsWith("https://openlineage.io/spec/") && iri.endsWith("Facet.json")) {
            // facets/1-2-0/SchemaDatasetFacet.json, and the few published as spec/1-0-1/SQLJobFacet.json
            return base + "facets/" + iri.substring(iri.lastIndexOf('/') + 1);
        }
        if (iri.startsWith("https://openlineage.io/spec/") && iri.endsWith("/OpenLineage.json")) {
            return base + "OpenLineage.json";
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
     * Every violation, each as "where: message" (e.g. {@code $.run.runId: does not match the uuid
     * pattern}); empty when the event is valid. A facet whose schema is not shipped is checked by
     * the core schema only.
     */
    public List<String> violations(JsonNode event) {
        List<String> out = new ArrayList<>();
        // judged as the event kind it is, so that a failure names its path (the core's top-level oneOf would not)
        String kind = event.has("run") ? "RunEvent" : event.has("dataset") ? "DatasetEvent" : "JobEvent";
        schema("https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/" + kind).validate(event)
                .forEach(m -> out.add(m.getMessage()));
        facets(event.path("run").path("facets"), "$.run.facets", "RunFacet", out);
        facets(event.path("job").path("facets"), "$.job.facets", "JobFacet", out);
        for (String side : List.of("inputs", "outputs")) {
            int i = 0;
            for (JsonNode d : event.path(side)) {
                String where = "$." + side + "[" + i++ + "]";
                facets(d.path("facets"), where + ".facets", "DatasetFacet", out);
                facets(d.path("inputFacets"), where + ".inputFacets", "InputDatasetFacet", out);
                facets(d.path("outputFacets"), where + ".outputFacets", "OutputDatasetFacet", out);
            }
        }
        return out;
    }

    private void facets(JsonNode facets, String where, String kind, List<String> out) {
        for (Iterator<Map.Entry<String, JsonNode>> it = facets.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            String key = f.getKey();
            String url = f.getValue().path("_schemaURL").asText();
            int hash = url.indexOf('#');
            String file = hash < 0 ? url : url.substring(0, hash);
            String mapped = map(file);
            boolean urlKnown = mapped != null && exists.test(mapped);
            KnownFacets.Facet byKey = known.byKey(kind, key);
            if (byKey != null) {
                validate(byKey, key, f.getValue(), where, "", out);
            }
            if (urlKnown) {
                KnownFacets.Facet byUrl = known.byFile(fileName(file));
                if (byUrl == null) {
                    validate(new KnownFacets.Facet(file, key), key, f.getValue(), where, "", out);
                } else if (byKey == null || !byUrl.file().equals(byKey.file())) {
                    validate(byUrl, key, f.getValue(), where, byKey == null ? "" : " (by its _schemaURL, " + byUrl.file() + ")", out);
                }
            } else if (strict) {
                out.add(where + "." + key + ": no schema for " + url);
            }
        }
    }

    /**
     * Validates {@code facet} (found under {@code key}) against {@code schema}'s file, wrapped as
     * {@code {"<schema's key>": facet}}; each message's path is rewritten to the facet's place in the event.
     */
    private void validate(KnownFacets.Facet schema, String key, JsonNode facet, String where, String note, List<String> out) {
        ObjectNode wrapped = JsonNodeFactory.instance.objectNode();
        wrapped.set(schema.key(), facet);
        String url = schema.file().contains("/") ? schema.file() : FACETS + schema.file();
        String prefix = "$." + schema.key();
        for (var m : schema(url).validate(wrapped)) {
            String message = m.getMessage();
            String rest = message.startsWith(prefix) ? message.substring(prefix.length()) : message.replaceFirst("^\\$", "");
            out.add(where + "." + key + rest + note);
        }
    }

    private static String fileName(String url) {
        return url.substring(url.lastIndexOf('/') + 1);
    }
}
