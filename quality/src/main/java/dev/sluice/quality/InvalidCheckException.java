package dev.sluice.quality;

import dev.sluice.core.SluiceException;

/** A check that cannot be evaluated as declared, e.g. {@code min_value} above {@code max_value}. */
public class InvalidCheckException extends SluiceException {
    public InvalidCheckException(String message) {
        super(message);
    }
}
