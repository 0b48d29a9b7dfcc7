package dev.sluice.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Replaces {@code ${NAME}}, {@code ${NAME:-default}} and {@code ${NAME-default}} in spec values,
 * as POSIX shells do (IEEE Std 1003.1, 2.6.2 Parameter Expansion): {@code :-} takes the default
 * when the variable is unset or empty, {@code -} only when it is unset. Defaults may hold further
 * references ({@code ${A:-${B}/x}}). {@code $$} writes a literal {@code $}.
 *
 * <p>Thread-safe when its environment function is.
 */
public final class EnvInterpolator {

    private final Function<String, @Nullable String> env;

    /**
     * @param env looks a variable up; returns null when it is unset
     */
    public EnvInterpolator(Function<String, @Nullable String> env) {
        this.env = env;
    }

    /** The result of one interpolation: the text, and the names of variables that were unset with no default. */
    public record Result(String value, List<String> unresolved) {
        public Optional<String> firstUnresolved() {
            return unresolved.stream().findFirst();
        }
    }

    /**
     * Interpolates {@code text}. Unset variables without a default become empty text and are named
     * in {@link Result#unresolved()}; a malformed reference (no closing brace, bad name) is named
     * there too.
     */
    public Result interpolate(String text) {
        List<String> unresolved = new ArrayList<>();
        StringBuilder out = new StringBuilder(text.length());
        int end = expand(text, 0, out, unresolved, false);
        if (end != text.length()) {
            unresolved.add("unbalanced '}' at " + end);
        }
        return new Result(out.toString(), List.copyOf(unresolved));
    }

    /** Expands from {@code i}; stops at an unmatched '}' when {@code nested}. Returns the stop index. */
    private int expand(String s, int i, StringBuilder out, List<String> unresolved, boolean nested) {
        while (i < s.length()) {
            char c = s.charAt(i);
            if (nested && c == '}') {
                return i;
            }
            if (c == '$' && i + 1 < s.length() && s.charAt(i + 1) == '$') {
                out.append('$');
                i += 2;
            } else if (c == '$' && i + 1 < s.length() && s.charAt(i + 1) == '{') {
                i = reference(s, i + 2, out, unresolved);
            } else {
                out.append(c);
                i++;
            }
        }
        return i;
    }

    private int reference(String s, int start, StringBuilder out, List<String> unresolved) {
        int i = start;
        while (i < s.length() && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_')) {
            i++;
        }
        String name = s.substring(start, i);
        if (name.isEmpty() || i >= s.length()) {
            unresolved.add("malformed reference '${" + s.substring(start) + "'");
            return s.length();
        }
        String value = env.apply(name);
        char c = s.charAt(i);
        if (c == '}') {
            if (value == null) {
                unresolved.add(name);
            } else {
                out.append(value);
            }
            return i + 1;
        }
        boolean colon = c == ':' && i + 1 < s.length() && s.charAt(i + 1) == '-';
        if (!colon && c != '-') {
            unresolved.add("malformed reference '${" + name + c + "…'");
            return s.length();
        }
        int defaultStart = i + (colon ? 2 : 1);
        StringBuilder fallback = new StringBuilder();
        int close = expand(s, defaultStart, fallback, unresolved, true);
        if (close >= s.length()) {
            unresolved.add("malformed reference '${" + name + "…' (no closing brace)");
            return s.length();
        }
        boolean useDefault = value == null || (colon && value.isEmpty());
        out.append(useDefault ? fallback : value);
        return close + 1;
    }
}
