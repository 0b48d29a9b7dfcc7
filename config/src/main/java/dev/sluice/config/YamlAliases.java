package dev.sluice.config;

import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds YAML aliases ({@code *name}) and merge keys ({@code <<:}) in a spec or contract file, which
 * Sluice refuses: Jackson's YAML reader does not resolve them, it reads an alias as the anchor's
 * name (so {@code [&g gamma, *g]} would silently become {@code [gamma, g]}). Thread-safe.
 */
final class YamlAliases {

    private static final YAMLFactory FACTORY = new YAMLFactory();

    private YamlAliases() {
    }

    /**
     * Every alias and merge key of {@code file} as a problem (file, line and column, what to do
     * instead); empty when there is none or the file cannot be read (reading it reports that).
     */
    static List<SpecProblem> of(Path file) {
        List<SpecProblem> out = new ArrayList<>();
        try (YAMLParser p = (YAMLParser) FACTORY.createParser(file.toFile())) {
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                boolean merge = t == JsonToken.FIELD_NAME && "<<".equals(p.currentName());
                if (p.isCurrentAlias() || merge) {
                    var at = p.currentTokenLocation();
                    out.add(new SpecProblem(file.toString(), "line " + at.getLineNr() + ", column " + at.getColumnNr(),
                            merge ? "<<" : "*" + p.getText(), (merge ? "a YAML merge key" : "a YAML alias")
                                    + " is not read by Sluice (it would be taken as plain text): write the value out"));
                }
            }
        } catch (IOException | RuntimeException e) {
            // a file that is not valid YAML: the reader says where
        }
        return out;
    }
}
