package dev.sluice.batch.job;

import dev.sluice.core.SluiceException;

/** A partition whose landed files are not there. */
public class LandingMissingException extends SluiceException {
    public LandingMissingException(String message) {
        super(message);
    }
}
