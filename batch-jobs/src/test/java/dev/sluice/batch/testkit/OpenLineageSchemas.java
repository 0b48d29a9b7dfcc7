package dev.sluice.batch.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.lineage.EventValidator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Validates OpenLineage events against the official schemas in {@code ../shared/fixtures/openlineage-spec/}
 * (the conformance fixtures, not the copy shipped in the jar): the core schema and each facet
 * against its own file, format assertions on, every facet required to have a schema file there
 * (or Sluice's own facet schema).
 */
public final class OpenLineageSchemas {

    private final EventValidator validator;

    private OpenLineageSchemas(Path dir) {
        this.validator = new EventValidator(dir);
    }

    /** The validator, or empty when the fixtures are absent (a user's clone without ../shared). */
    public static Optional<OpenLineageSchemas> find() {
        Path spec = TestHome.projectRoot().resolve("../shared/fixtures/openlineage-spec").normalize();
        return Files.isDirectory(spec) ? Optional.of(new OpenLineageSchemas(spec)) : Optional.empty();
    }

    /** Every violation of {@code event}, as "where: message". */
    public List<String> violations(JsonNode event) {
        return validator.violations(event);
    }
}
