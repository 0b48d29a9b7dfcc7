package dev.sluice.config;

import dev.sluice.core.BoundedText;

/**
 * One thing wrong with a spec or contract file.
 *
 * @param file the file, as given to the loader
 * @param keyPath where in the file, e.g. {@code layers.silver[1].key[0]}; empty for the whole file
 * @param value the offending value as text ({@code <missing>} when absent); secrets are never shown;
 *     cut to {@value #MAX_VALUE_CHARS} characters ({@link dev.sluice.core.BoundedText})
 * @param reason why it is wrong and what would be right
 */
public record SpecProblem(String file, String keyPath, String value, String reason) {

    /** Characters of an offending value a problem keeps. */
    public static final int MAX_VALUE_CHARS = 200;

    public SpecProblem {
        value = BoundedText.cut(value, MAX_VALUE_CHARS);
        keyPath = BoundedText.cut(keyPath, MAX_VALUE_CHARS);
    }

    /** {@code file: keyPath = value: reason}, one line; {@code file: reason} for the file as a whole. */
    public String describe() {
        if (keyPath.isEmpty() && value.isEmpty()) {
            return file + ": " + reason;
        }
        return file + ": " + (keyPath.isEmpty() ? "" : keyPath + " = ") + value + ": " + reason;
    }

    @Override
    public String toString() {
        return describe();
    }
}
