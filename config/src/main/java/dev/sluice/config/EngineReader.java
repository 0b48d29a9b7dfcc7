package dev.sluice.config;

import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Reads which layer engine runs the pipeline:
 * <pre>
 * engine: lakehouse                  # warehouse (default) or lakehouse
 * lakehouse:
 *   location: s3a://lake/flights     # default ${SLUICE_HOME}/lakehouse: the Iceberg data files, a path or a Hadoop-FS URI
 * </pre>
 * A {@code lakehouse:} section with the warehouse engine is a problem (it would be ignored). A
 * location without a URI scheme is a local path, made absolute against the working directory when
 * the spec is loaded: Iceberg records each table's location in its catalog as given, and a relative
 * one would resolve elsewhere from another directory. Stateless.
 */
final class EngineReader {

    private static final String DEFAULT_LOCATION = "${SLUICE_HOME:-./var}/lakehouse";

    private EngineReader() {
    }

    /** {@code location} as an absolute path when it is a local path (no URI scheme; a Windows drive is a path), else as is. */
    static String absolute(String location) {
        if (location.matches("^[A-Za-z][A-Za-z0-9+.-]+:.*") && !location.matches("^[A-Za-z]:[\\\\/].*")) {
            return location;
        }
        return java.nio.file.Path.of(location).toAbsolutePath().normalize().toString();
    }

    static EngineSpec read(YamlCursor c, EnvInterpolator env) {
        EngineKind kind = c.text("engine", false).map(e -> {
            for (EngineKind k : EngineKind.values()) {
                if (k.specName().equals(e)) {
                    return k;
                }
            }
            c.problem("engine", e, "not an engine: one of " + Arrays.stream(EngineKind.values())
                    .map(EngineKind::specName).collect(Collectors.joining(", ")));
            return EngineKind.WAREHOUSE;
        }).orElse(EngineKind.WAREHOUSE);
        String location = c.map("lakehouse", false).map(l -> {
            l.allowOnly(Set.of("location"));
            if (kind != EngineKind.LAKEHOUSE) {
                l.problemHere("", "a lakehouse section needs engine: lakehouse");
            }
            return l.text("location", false).filter(v -> !v.isBlank()).orElse(null);
        }).orElse(null);
        if (location == null) {
            location = env.interpolate(DEFAULT_LOCATION).value();
        }
        return new EngineSpec(kind, absolute(location));
    }
}
