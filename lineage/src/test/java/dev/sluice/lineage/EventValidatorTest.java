package dev.sluice.lineage;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Facets of events from other tools are judged by the schema their key names (a dataset facet
 * under {@code schema} is a SchemaDatasetFacet whatever its {@code _schemaURL} says), by any
 * published revision of that schema's {@code $id}, and by their {@code _schemaURL} only when the
 * key names no shipped schema: a URL's JSON-pointer fragment names a definition, a URL naming
 * another facet is no judge. Every failure names its JSON path in the event. Upstream's examples
 * are in {@code src/test/resources/openlineage-upstream} (README there).
 */
class EventValidatorTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String DQ_URL = "https://openlineage.io/spec/facets/1-0-0/DataQualityAssertionsDatasetFacet.json"
            + "#/$defs/DataQualityAssertionsDatasetFacet";
    private static final String SCHEMA_URL = "https://openlineage.io/spec/facets/1-1-0/SchemaDatasetFacet.json#/$defs/SchemaDatasetFacet";

    private final EventValidator validator = new EventValidator();

    private static JsonNode event(String outputFacets) throws Exception {
        return JSON.readTree("""
                {"eventTime": "2026-11-30T01:00:00Z", "eventType": "COMPLETE", "producer": "https://example.org/etl",
                 "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
                 "run": {"runId": "0d0c3f0e-1a2b-4c3d-8e4f-5a6b7c8d9e0f"},
                 "job": {"namespace": "etl", "name": "nightly"},
                 "outputs": [{"namespace": "postgres://dwh:5432", "name": "raw.orders", "facets": {%s}}]}
                """.formatted(outputFacets));
    }

    @Test
    void aSchemaFacetWhoseUrlNamesAnotherFacetIsJudgedByItsKeyAlone() throws Exception {
        JsonNode e = event("""
                "schema": {"_producer": "https://example.org/etl", "_schemaURL": "%s", "fields": [{"type": "int64"}]}""".formatted(DQ_URL));

        assertThat(validator.violations(e)).containsExactly("$.outputs[0].facets.schema.fields[0]: required property 'name' not found");
    }

    private static JsonNode event(String runFacets, String jobFacets, String outputFacets, String outputOnlyFacets) throws Exception {
        return JSON.readTree("""
                {"eventTime": "2026-11-30T01:00:00Z", "eventType": "COMPLETE", "producer": "https://example.org/etl",
                 "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
                 "run": {"runId": "0d0c3f0e-1a2b-4c3d-8e4f-5a6b7c8d9e0f", "facets": {%s}},
                 "job": {"namespace": "etl", "name": "nightly", "facets": {%s}},
                 "outputs": [{"namespace": "postgres://dwh:5432", "name": "raw.orders", "facets": {%s}, "outputFacets": {%s}}]}
                """.formatted(runFacets, jobFacets, outputFacets, outputOnlyFacets));
    }

    /** The facet object of an upstream example file ({@code {"<key>": facet}}), as text to place under its key. */
    private static String upstream(String file) throws Exception {
        try (InputStream in = EventValidatorTest.class.getResourceAsStream("/openlineage-upstream/" + file)) {
            JsonNode example = JSON.readTree(in);
            String key = example.fieldNames().next();
            return "\"" + key + "\": " + example.get(key);
        }
    }

    // #51 item 1: a _schemaURL's JSON-pointer fragment names a definition, not the whole event schema
    @Test
    void aCustomRunFacetOfTheJavaClientIsADefinitionOfTheCore() throws Exception {
        // what openlineage-java's DefaultRunFacet sends as its _schemaURL
        JsonNode e = event("""
                "myTool_run": {"_producer": "https://example.org/etl",
                               "_schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunFacet", "attempt": 3}""", "", "", "");

        assertThat(validator.violations(e)).isEmpty();
    }

    @Test
    void upstreamsOutputStatisticsExampleNamedByAPointerIntoTheOldCorePasses() throws Exception {
        JsonNode e = event("", "", "", upstream("OutputStatisticsOutputDatasetFacet/1.json"));

        assertThat(validator.violations(e)).isEmpty();
    }

    @Test
    void aFacetNamedByAPointerIsStillJudgedByItsKeysSchema() throws Exception {
        JsonNode e = event("", "", "", """
                "outputStatistics": {"_producer": "https://example.org/etl",
                                     "_schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/OutputDatasetFacet", "rowCount": "many"}""");

        assertThat(validator.violations(e)).containsExactly("$.outputs[0].outputFacets.outputStatistics.rowCount: string found, integer expected");
    }

    @Test
    void aCustomFacetNamedByAPointerIsValidatedAsThatDefinition() throws Exception {
        JsonNode e = event("""
                "myTool_run": {"_producer": 7, "_schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunFacet"}""", "", "", "");

        assertThat(validator.violations(e)).contains("$.run.facets.myTool_run._producer: integer found, string expected");
        assertThat(validator.violations(e)).noneMatch(v -> v.contains("eventTime"));
    }

    @Test
    void aPointerToNothingInAShippedDocumentIsIgnoredForOtherTools() throws Exception {
        JsonNode e = event("""
                "myTool_run": {"_producer": "https://example.org/etl",
                               "_schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/NoSuchFacet", "n": 1}""", "", "", "");

        assertThat(validator.violations(e)).isEmpty();
    }

    // #51 item 2: every revision upstream published under a facet's $id
    @Test
    void upstreamsJobTypeExamplesOfBothRevisionsOf204Pass() throws Exception {
        for (String file : List.of("2-fc4b2d88.json", "3-755f336a.json", "2-a12b9d22.json", "3-a12b9d22.json")) {
            JsonNode e = event("", upstream("JobTypeJobFacet/" + file), "", "");

            assertThat(validator.violations(e)).as(file).isEmpty();
        }
    }

    @Test
    void aJobTypeFacetThatNoRevisionAcceptsIsRefusedByTheCurrentOne() throws Exception {
        JsonNode e = event("", """
                "jobType": {"_producer": "https://example.org/etl", "_schemaURL": "https://openlineage.io/spec/facets/2-0-4/JobTypeJobFacet.json",
                            "processingType": "BATCH", "integration": "SPARK", "emissionPattern": {"eventTrigger": "EVENT_BASED"}}""", "", "");

        assertThat(validator.violations(e)).containsExactly("$.job.facets.jobType.emissionPattern: required property 'eventCompleteness' not found");
    }

    @Test
    void aJobTypeFacetOf202IsJudgedBy202() throws Exception {
        // 2-0-2 had no emissionPattern: an object there is not checked, whatever it holds
        JsonNode e = event("", """
                "jobType": {"_producer": "https://example.org/etl", "_schemaURL": "https://openlineage.io/spec/facets/2-0-2/JobTypeJobFacet.json",
                            "processingType": "BATCH", "integration": "SPARK", "emissionPattern": {"eventTrigger": "EVENT_BASED"}}""", "", "");

        assertThat(validator.violations(e)).isEmpty();
    }

    // #51 item 3: a URL naming another facet than the key does is no judge
    @Test
    void datasetTypeAndLifecycleFacetsCarryingDatasetVersionsUrlPass() throws Exception {
        String versionUrl = "https://openlineage.io/spec/facets/1-0-0/DatasetVersionDatasetFacet.json#/$defs/DatasetVersionDatasetFacet";
        JsonNode e = event("", "", """
                "datasetType": {"_producer": "https://example.org/etl", "_schemaURL": "%s", "datasetType": "VIEW", "subType": "MATERIALIZED"},
                "lifecycleStateChange": {"_producer": "https://example.org/etl", "_schemaURL": "%s", "lifecycleStateChange": "CREATE"}"""
                .formatted(versionUrl, versionUrl), "");

        assertThat(validator.violations(e)).isEmpty();
    }

    @Test
    void aDatasetTypeFacetIsJudgedByItsKeysSchema() throws Exception {
        JsonNode e = event("", "", """
                "datasetType": {"_producer": "https://example.org/etl",
                                "_schemaURL": "https://openlineage.io/spec/facets/1-0-0/DatasetVersionDatasetFacet.json", "subType": "VIEW"}""", "");

        assertThat(validator.violations(e)).containsExactly("$.outputs[0].facets.datasetType: required property 'datasetType' not found");
    }

    @Test
    void aSchemaFacetWithItsOwnUrlAndWrongFieldsNamesThePath() throws Exception {
        JsonNode e = event("""
                "schema": {"_producer": "https://example.org/etl", "_schemaURL": "%s", "fields": "id int"}""".formatted(SCHEMA_URL));

        assertThat(validator.violations(e)).containsExactly("$.outputs[0].facets.schema.fields: string found, array expected");
    }

    @Test
    void aKnownKeyWithACustomUrlIsStillJudgedByItsKey() throws Exception {
        JsonNode e = event("""
                "schema": {"_producer": "https://example.org/etl", "_schemaURL": "https://example.org/facets/MySchema.json",
                           "fields": [{"name": 7}]}""");

        assertThat(validator.violations(e)).containsExactly("$.outputs[0].facets.schema.fields[0].name: integer found, string expected");
    }

    @Test
    void validAndCustomFacetsPass() throws Exception {
        JsonNode e = event("""
                "schema": {"_producer": "https://example.org/etl", "_schemaURL": "%s", "fields": [{"name": "id", "type": "int64"}]},
                "myTool_stats": {"_producer": "https://example.org/etl", "_schemaURL": "https://example.org/facets/Stats.json", "n": 3}"""
                .formatted(SCHEMA_URL));

        assertThat(validator.violations(e)).isEmpty();
    }
}
