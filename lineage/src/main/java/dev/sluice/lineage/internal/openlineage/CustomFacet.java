package dev.sluice.lineage.internal.openlineage;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.openlineage.client.OpenLineage;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A facet the client has no class for (the partitioning facet of the OpenLineage spec, Sluice's
 * own run facet): its {@code _producer}, its {@code _schemaURL} and its fields. Not thread-safe
 * while being filled; immutable once emitted.
 */
@JsonPropertyOrder({"_producer", "_schemaURL"})
@JsonInclude(JsonInclude.Include.NON_NULL)
final class CustomFacet implements OpenLineage.RunFacet, OpenLineage.DatasetFacet, OpenLineage.InputDatasetFacet {

    private final URI producer;
    private final URI schemaUrl;
    private final Map<String, Object> fields = new LinkedHashMap<>();

    CustomFacet(URI producer, URI schemaUrl) {
        this.producer = producer;
        this.schemaUrl = schemaUrl;
    }

    CustomFacet with(String key, Object value) {
        fields.put(key, value);
        return this;
    }

    @Override
    public URI get_producer() {
        return producer;
    }

    @Override
    public URI get_schemaURL() {
        return schemaUrl;
    }

    @Override
    public Boolean get_deleted() {
        return null;
    }

    @Override
    @JsonAnyGetter
    public Map<String, Object> getAdditionalProperties() {
        return fields;
    }
}
