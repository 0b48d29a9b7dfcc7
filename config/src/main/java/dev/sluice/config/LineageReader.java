package dev.sluice.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * Reads {@code lineage:}, where a pipeline's OpenLineage events go ({@link LineageSpec}, which shows
 * the keys and their defaults). Every key is optional, and so is the section: a key left out takes
 * its default from the environment ({@code SLUICE_LINEAGE_TRANSPORT}, {@code SLUICE_LINEAGE_URL},
 * …), so a spec without {@code lineage:} is configured by the environment alone. The transport is
 * one of file, console, http, kafka or none; http needs an {@code http(s)://host[:port]} base URL;
 * {@code queue} is at least 1 (default 10000).
 *
 * <p>Problems are added to the cursor's list with their key paths (a bad value from the
 * environment is reported at {@code lineage.<key>}); nothing is thrown for bad content. Stateless.
 */
final class LineageReader {

    private static final int DEFAULT_QUEUE = 10_000;

    private LineageReader() {
    }

    /**
     * @param c the spec's root
     * @param env the environment the defaults are interpolated with
     */
    static LineageSpec read(YamlCursor c, EnvInterpolator env) {
        Optional<YamlCursor> l = c.map("lineage", false);
        l.ifPresent(x -> x.allowOnly(Set.of("transport", "file", "url", "api_key", "namespace", "queue", "kafka_bootstrap", "topic")));
        BiFunction<String, String, String> value = (key, dflt) -> l.flatMap(x -> x.text(key, false))
                .orElseGet(() -> env.interpolate(dflt).value());
        String t = value.apply("transport", "${SLUICE_LINEAGE_TRANSPORT:-file}").toLowerCase(Locale.ROOT);
        YamlCursor where = l.orElse(c);
        String prefix = l.isPresent() ? "" : "lineage.";
        LineageSpec.Transport transport = LineageSpec.Transport.parse(t).orElseGet(() -> {
            where.problem(prefix + "transport", t, "one of file, console, http, kafka, none (SLUICE_LINEAGE_TRANSPORT)");
            return LineageSpec.Transport.NONE;
        });
        String url = value.apply("url", "${SLUICE_LINEAGE_URL:-}");
        if (transport == LineageSpec.Transport.HTTP && !validHttpUrl(url)) {
            where.problem(prefix + "url", url, "the http transport needs an http(s)://host[:port] base URL"
                    + " (events go to POST {url}/api/v1/lineage; SLUICE_LINEAGE_URL)");
        }
        int queue = l.map(x -> x.integer("queue", DEFAULT_QUEUE, 1).orElse(DEFAULT_QUEUE)).orElse(DEFAULT_QUEUE);
        return new LineageSpec(transport, value.apply("file", "${SLUICE_HOME}/lineage/events.ndjson"), url.isEmpty() ? null : url,
                value.apply("api_key", "${SLUICE_LINEAGE_API_KEY:-}"), value.apply("namespace", "${SLUICE_LINEAGE_NAMESPACE:-sluice}"), queue,
                value.apply("kafka_bootstrap", "${SLUICE_KAFKA_BOOTSTRAP:-localhost:9092}"), value.apply("topic", "${SLUICE_LINEAGE_TOPIC:-openlineage}"));
    }

    private static boolean validHttpUrl(String url) {
        try {
            URI u = new URI(url);
            return ("http".equals(u.getScheme()) || "https".equals(u.getScheme())) && u.getHost() != null && u.getPort() <= 65535;
        } catch (URISyntaxException e) {
            return false;
        }
    }
}
