package dev.sluice.lineage;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * Facets of events from other tools are judged by the schema their key names (a dataset facet
 * under {@code schema} is a SchemaDatasetFacet whatever its {@code _schemaURL} says), and also by
 * the facet their {@code _schemaURL} names when it is a shipped one; every failure names its JSON
 * path in the event.
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
    void aSchemaFacetWhoseUrlNamesAnotherFacetIsJudgedByItsKeyAndByItsUrl() throws Exception {
        JsonNode e = event("""
                "schema": {"_producer": "https://example.org/etl", "_schemaURL": "%s", "fields": [{"type": "int64"}]}""".formatted(DQ_URL));

        assertThat(validator.violations(e)).containsExactly(
                "$.outputs[0].facets.schema.fields[0]: required property 'name' not found",
                "$.outputs[0].facets.schema: required property 'assertions' not found (by its _schemaURL, DataQualityAssertionsDatasetFacet.json)");
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
