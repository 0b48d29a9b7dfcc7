package dev.sluice.operations.docs;

import dev.sluice.config.SourceSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * How a document names landing locations without depending on the machine: a path under the
 * Sluice home is written {@code ${SLUICE_HOME}/…}, and a source's lineage dataset is its path
 * relative to the home without the partition part (e.g. {@code landing/flights}), as the lineage
 * events name it. Immutable and thread-safe.
 *
 * @param home the Sluice home the spec was loaded with
 */
public record LandingNames(Path home) {

    /** The landing path template of {@code s}, with the home written {@code ${SLUICE_HOME}}. */
    public String path(SourceSpec s) {
        Path template = Path.of(s.pathTemplate()).normalize();
        Path h = home.normalize();
        if (template.startsWith(h)) {
            return "${SLUICE_HOME}/" + slashes(h.relativize(template));
        }
        Path abs = template.toAbsolutePath().normalize();
        Path absHome = home.toAbsolutePath().normalize();
        return abs.startsWith(absHome) ? "${SLUICE_HOME}/" + slashes(absHome.relativize(abs)) : slashes(template);
    }

    /** The lineage dataset name of {@code s}'s landed files, e.g. {@code landing/flights}. */
    public String dataset(SourceSpec s) {
        String p = path(s);
        String rel = p.startsWith("${SLUICE_HOME}/") ? p.substring("${SLUICE_HOME}/".length()) : p;
        List<String> parts = new ArrayList<>();
        for (String part : rel.split("/")) {
            if (!part.contains(SourceSpec.PARTITION_PLACEHOLDER)) {
                parts.add(part);
            }
        }
        return String.join("/", parts);
    }

    private static String slashes(Path p) {
        return p.toString().replace('\\', '/');
    }
}
