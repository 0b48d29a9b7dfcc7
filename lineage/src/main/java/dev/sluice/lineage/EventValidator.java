package dev.sluice.lineage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaException;
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
import org.jspecify.annotations.Nullable;

/**
 * Validates an OpenLineage event against the official schemas shipped in the lineage jar
 * ({@code dev/sluice/lineage/spec}: core 2-0-2, 14 facets and other published revisions of some;
 * networknt json-schema-validator, draft 2020-12, format assertions on): the core schema for the
 * event, then each facet (the core schema checks only that a facet has {@code _producer} and
 * {@code _schemaURL}) by the schema of its KEY where it stands ({@link KnownFacets}: a dataset
 * facet under {@code schema} is a SchemaDatasetFacet, a run facet under {@code errorMessage} an
 * ErrorMessageRunFacet, whatever its {@code _schemaURL} says). A facet passes when one published
 * revision of its schema's {@code $id} passes it (upstream changed JobTypeJobFacet's fields under
 * 2-0-4). Its {@code _schemaURL} judges only a facet whose key names no shipped schema: a shipped
 * facet file of that same key; a definition in a schema document by its JSON-pointer fragment
 * ({@code …/OpenLineage.json#/$defs/RunFacet}, what openlineage-java's {@code DefaultRunFacet}
 * sends, validated as that definition, not as a whole event); Sluice's own facet files. A URL
 * naming another facet than the key does is no judge (upstream's own examples of
 * DatasetTypeDatasetFacet carry DatasetVersion's). Versioned URLs resolve to the shipped files by
 * file name; nothing is fetched. Thread-safe.
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
        facets(event.path("dataset").path("facets"), "$.dataset.facets", "DatasetFacet", out);
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
            JsonNode facet = f.getValue();
            String url = facet.path("_schemaURL").asText();
            int hash = url.indexOf('#');
            String file = hash < 0 ? url : url.substring(0, hash);
            String fragment = hash < 0 ? "" : url.substring(hash + 1);
            String mapped = map(file);
            boolean urlKnown = mapped != null && exists.test(mapped);
            KnownFacets.Facet byKey = known.byKey(kind, key);
            KnownFacets.Facet byUrl = urlKnown ? named(file, fragment) : null;
            if (byKey != null) {
                // judged by its key's schema alone; by the revisions of the $id its URL names when it names this facet
                judge(byKey, key, facet, where, byUrl != null && byUrl.file().equals(byKey.file()) ? file : "", out);
            } else if (byUrl != null) {
                if (byUrl.key().equals(key)) {
                    judge(byUrl, key, facet, where, file, out); // a known facet at a place where it does not stand
                }
                // else the URL names another facet than its key does (upstream's own examples do): not judged by it
            } else if (urlKnown && !fragment.isEmpty()) {
                definition(file, fragment, key, facet, where, out);
            } else if (urlKnown && !file.endsWith("/OpenLineage.json")) {
                validate(new KnownFacets.Facet(file, key, "", List.of()), file, key, facet, where, out);
            } else if (strict && !urlKnown) {
                out.add(where + "." + key + ": no schema for " + url);
            }
            // the core document without a fragment names no facet: the core's check of the facet stands
        }
    }

    /**
     * The known facet a URL names: by its file ({@code …/2-0-4/JobTypeJobFacet.json}), or, in the
     * core document, by the definition its fragment ends with ({@code OpenLineage.json#/definitions/OutputStatisticsOutputDatasetFacet},
     * as facets of the 1-0-x core were named); else null.
     */
    private KnownFacets.@Nullable Facet named(String file, String fragment) {
        KnownFacets.Facet byFile = known.byFile(fileName(file));
        if (byFile != null || !file.endsWith("/OpenLineage.json") || fragment.isEmpty()) {
            return byFile;
        }
        return known.byFile(fragment.substring(fragment.lastIndexOf('/') + 1) + ".json");
    }

    /**
     * Validates {@code facet} itself against the definition {@code fragment} (a JSON pointer) of
     * the schema document {@code file} names, e.g. {@code OpenLineage.json#/$defs/RunFacet}, the
     * {@code _schemaURL} of openlineage-java's {@code DefaultRunFacet}; the 1-0-x cores'
     * {@code #/definitions/…} is the 2-0-2 core's {@code #/$defs/…}. A pointer to nothing is a
     * violation for Sluice's own events ({@link #EventValidator(Path)}) and ignored for other
     * tools' (the core's check of the facet stands).
     */
    private void definition(String file, String fragment, String key, JsonNode facet, String where, List<String> out) {
        String pointer = file.endsWith("/OpenLineage.json") ? fragment.replaceFirst("^/definitions/", "/\\$defs/") : fragment;
        try {
            for (var m : schema(file + "#" + pointer).validate(facet)) {
                out.add(where + "." + key + m.getMessage().replaceFirst("^\\$", ""));
            }
        } catch (JsonSchemaException e) {
            if (strict) {
                out.add(where + "." + key + ": no schema at " + file + "#" + fragment);
            }
        }
    }

    /**
     * Judges {@code facet} (found under {@code key}) by {@code schema}: valid when one of the
     * facet's published revisions of one {@code $id} passes it, that of {@code urlId} when a
     * revision has it (the facet's {@code _schemaURL} names that version), else the current file's
     * {@code $id}; otherwise the violations of the first of those revisions (the current file's
     * when it is one of them).
     */
    private void judge(KnownFacets.Facet schema, String key, JsonNode facet, String where, String urlId, List<String> out) {
        List<KnownFacets.Revision> all = new ArrayList<>();
        all.add(new KnownFacets.Revision(schema.file().contains("/") ? schema.file() : FACETS + schema.file(), schema.id()));
        all.addAll(schema.revisions());
        String id = all.stream().anyMatch(r -> r.id().equals(urlId)) ? urlId : schema.id();
        List<String> first = null;
        for (KnownFacets.Revision r : all) {
            if (!r.id().equals(id)) {
                continue;
            }
            List<String> found = new ArrayList<>();
            validate(schema, r.location(), key, facet, where, found);
            if (found.isEmpty()) {
                return;
            }
            if (first == null) {
                first = found;
            }
        }
        out.addAll(first);
    }

    /**
     * Validates {@code facet} (found under {@code key}) against the facet schema at {@code location},
     * wrapped as {@code {"<schema's key>": facet}}; each message's path is rewritten to the facet's place in the event.
     */
    private void validate(KnownFacets.Facet schema, String location, String key, JsonNode facet, String where, List<String> out) {
        ObjectNode wrapped = JsonNodeFactory.instance.objectNode();
        wrapped.set(schema.key(), facet);
        String prefix = "$." + schema.key();
        for (var m : schema(location).validate(wrapped)) {
            String message = m.getMessage();
            String rest = message.startsWith(prefix) ? message.substring(prefix.length()) : message.replaceFirst("^\\$", "");
            out.add(where + "." + key + rest);
        }
    }

    private static String fileName(String url) {
        return url.substring(url.lastIndexOf('/') + 1);
    }
}
