package dev.sluice.config;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The process environment as Sluice sees it: the OS environment, with {@code SLUICE_HOME} always
 * defined (default {@code ./var}, like {@code AIRFLOW_HOME}), so that specs may write
 * {@code ${SLUICE_HOME}/landing/…}. Immutable and thread-safe.
 */
public final class SluiceEnvironment implements Function<String, @Nullable String> {

    /** The home variable. */
    public static final String HOME_VARIABLE = "SLUICE_HOME";
    /** The home when {@code SLUICE_HOME} is unset or empty. */
    public static final String DEFAULT_HOME = "./var";

    private final Map<String, String> variables;

    public SluiceEnvironment(Map<String, String> variables) {
        this.variables = Map.copyOf(variables);
    }

    /** The environment of this process. */
    public static SluiceEnvironment system() {
        return new SluiceEnvironment(System.getenv());
    }

    @Override
    public @Nullable String apply(String name) {
        if (name.equals(HOME_VARIABLE)) {
            return home().toString();
        }
        return variables.get(name);
    }

    /** {@code SLUICE_HOME}, or {@code ./var} when unset or empty; as given (relative to the working directory). */
    public Path home() {
        String h = variables.get(HOME_VARIABLE);
        return Path.of(h == null || h.isBlank() ? DEFAULT_HOME : h);
    }

    /** Every variable, with {@code SLUICE_HOME} resolved. */
    public Map<String, String> variables() {
        Map<String, String> all = new HashMap<>(variables);
        all.put(HOME_VARIABLE, home().toString());
        return Map.copyOf(all);
    }

    /** An interpolator over this environment. */
    public EnvInterpolator interpolator() {
        return new EnvInterpolator(this);
    }
}
