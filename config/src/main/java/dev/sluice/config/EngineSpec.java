package dev.sluice.config;

import java.util.Objects;

/**
 * The layer engine of a pipeline and where it keeps its data.
 *
 * @param kind which engine ({@code engine:}, default {@link EngineKind#WAREHOUSE})
 * @param location the lakehouse engine's data files: a local path or any Hadoop-FS URI
 *     ({@code lakehouse.location}, default {@code ${SLUICE_HOME}/lakehouse}); the Iceberg catalog
 *     itself is in the warehouse database. Set for every spec, read only by the lakehouse engine.
 */
public record EngineSpec(EngineKind kind, String location) {

    public EngineSpec {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(location, "location");
    }

    /** True for {@link EngineKind#LAKEHOUSE}. */
    public boolean lakehouse() {
        return kind == EngineKind.LAKEHOUSE;
    }
}
