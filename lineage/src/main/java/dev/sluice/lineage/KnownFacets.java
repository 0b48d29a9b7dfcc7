package dev.sluice.lineage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.SluiceException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The OpenLineage facets whose schemas Sluice knows, by the key a facet stands under: each schema
 * file declares its key as its one top-level property ({@code SchemaDatasetFacet.json} declares
 * {@code schema}), and its file name says where it stands ({@code …RunFacet} under
 * {@code run.facets}, {@code …JobFacet} under {@code job.facets}, {@code …InputDatasetFacet} under
 * a dataset's {@code inputFacets}, {@code …OutputDatasetFacet} under {@code outputFacets}, any
 * other {@code …DatasetFacet} under {@code facets}). Besides the current file of a facet, the jar
 * ships other revisions upstream published ({@code spec/revisions/<Facet>-<commit>.json}, see
 * {@link #REVISIONS}): upstream changed JobTypeJobFacet's fields under the same {@code $id}
 * (2-0-4: {@code emissionPattern.eventContentMode}, later {@code eventCompleteness}), so producers
 * send either. Immutable, thread-safe.
 */
final class KnownFacets {

    /** The facet schemas shipped in the lineage jar (and in the conformance fixtures). */
    static final List<String> FILES = List.of("ColumnLineageDatasetFacet.json", "DataQualityAssertionsDatasetFacet.json",
            "DataQualityMetricsInputDatasetFacet.json", "DatasetVersionDatasetFacet.json", "ErrorMessageRunFacet.json",
            "JobTypeJobFacet.json", "NominalTimeRunFacet.json", "OutputStatisticsOutputDatasetFacet.json", "ParentRunFacet.json",
            "PartitionDatasetFacet.json", "ProcessingEngineRunFacet.json", "SQLJobFacet.json", "SchemaDatasetFacet.json",
            "DatasetTypeDatasetFacet.json");
    /**
     * Other published revisions of a shipped facet, by its file: {@code spec/revisions/} files, each
     * upstream's file of that facet at the commit its name ends with (OpenLineage/OpenLineage
     * {@code spec/facets/}, the README there names them).
     */
    static final Map<String, List<String>> REVISIONS = Map.of("JobTypeJobFacet.json",
            List.of("JobTypeJobFacet-755f336a.json", "JobTypeJobFacet-46420d73.json"));
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * A facet schema: its file name, the key it declares, its {@code $id} (e.g.
     * {@code https://openlineage.io/spec/facets/2-0-4/JobTypeJobFacet.json}; empty when it has none)
     * and its other published revisions (none for a facet known only by a fixture folder).
     */
    record Facet(String file, String key, String id, List<Revision> revisions) {
        Facet {
            revisions = List.copyOf(revisions);
        }
    }

    /** A revision of a facet's schema: where it is read from (a {@code classpath:} location) and its {@code $id}. */
    record Revision(String location, String id) {
    }

    private final Map<String, Facet> byKindAndKey = new HashMap<>();
    private final Map<String, Facet> byFile = new HashMap<>();

    private KnownFacets() {
    }

    /** The facets shipped in the jar ({@code dev/sluice/lineage/spec/facets}). */
    static KnownFacets shipped() {
        KnownFacets k = new KnownFacets();
        for (String file : FILES) {
            List<Revision> revisions = new ArrayList<>();
            for (String r : REVISIONS.getOrDefault(file, List.of())) {
                revisions.add(new Revision("classpath:dev/sluice/lineage/spec/revisions/" + r, read("spec/revisions/" + r).path("$id").asText()));
            }
            k.add(file, read("spec/facets/" + file), revisions);
        }
        return k;
    }

    private static JsonNode read(String resource) {
        try (InputStream in = KnownFacets.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new SluiceException("the lineage jar lacks " + resource);
            }
            return JSON.readTree(in);
        } catch (IOException e) {
            throw new SluiceException("cannot read the shipped schema " + resource + ": " + e.getMessage(), e);
        }
    }

    /** The facets of {@link #FILES} present in {@code dir} (a missing file is simply not known). */
    static KnownFacets in(Path dir) {
        KnownFacets k = new KnownFacets();
        for (String file : FILES) {
            Path p = dir.resolve(file);
            if (Files.isRegularFile(p)) {
                try {
                    k.add(file, JSON.readTree(p.toFile()), List.of());
                } catch (IOException e) {
                    throw new SluiceException("cannot read the schema " + p + ": " + e.getMessage(), e);
                }
            }
        }
        return k;
    }

    private void add(String file, JsonNode schema, List<Revision> revisions) {
        var keys = schema.path("properties").fieldNames();
        if (!keys.hasNext()) {
            return;
        }
        Facet f = new Facet(file, keys.next(), schema.path("$id").asText(), revisions);
        byKindAndKey.put(kind(file) + "/" + f.key(), f);
        byFile.put(file, f);
    }

    /** Where a facet of this file stands: RunFacet, JobFacet, InputDatasetFacet, OutputDatasetFacet or DatasetFacet. */
    private static String kind(String file) {
        String name = file.substring(0, file.length() - ".json".length());
        for (String kind : List.of("InputDatasetFacet", "OutputDatasetFacet", "DatasetFacet", "RunFacet", "JobFacet")) {
            if (name.endsWith(kind)) {
                return kind;
            }
        }
        return "Facet";
    }

    /** The facet standing under {@code key} at a place of {@code kind} (e.g. DatasetFacet, schema), or null. */
    @Nullable Facet byKey(String kind, String key) {
        return byKindAndKey.get(kind + "/" + key);
    }

    /** The facet of a schema file name (e.g. SchemaDatasetFacet.json), or null. */
    @Nullable Facet byFile(String file) {
        return byFile.get(file);
    }
}
