package dev.sluice.sampledata;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Properties;

/**
 * Which sample package to fetch and how to check it.
 *
 * @param packageSpec the npm package spec, e.g. {@code vega-datasets@3.2.1}
 * @param sha256 the SHA-256 (hex) the packed tarball must have
 * @param npm the npm command
 */
public record SampleDataSpec(String packageSpec, String sha256, String npm) {

    /**
     * The pinned package from {@code sample-data.properties}, each value overridable by
     * {@code SLUICE_SAMPLE_PACKAGE}, {@code SLUICE_SAMPLE_SHA256} and {@code SLUICE_NPM} in {@code env}.
     */
    public static SampleDataSpec pinned(Map<String, String> env) {
        Properties p = new Properties();
        try (InputStream in = SampleDataSpec.class.getResourceAsStream("sample-data.properties")) {
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new SampleDataSpec(
                env.getOrDefault("SLUICE_SAMPLE_PACKAGE", p.getProperty("package")),
                env.getOrDefault("SLUICE_SAMPLE_SHA256", p.getProperty("sha256")),
                env.getOrDefault("SLUICE_NPM", p.getProperty("npm")));
    }
}
