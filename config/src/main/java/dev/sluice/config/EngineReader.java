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
 * A {@code lakehouse:} section with the warehouse engine is a problem (it would be ignored). Stateless.
 */
final class EngineReader {

    private static final String DEFAULT_LOCATION = "${SLUICE_HOME:-./var}/lakehouse";

    private EngineReader() {
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
        return new EngineSpec(kind, location);
    }
}
