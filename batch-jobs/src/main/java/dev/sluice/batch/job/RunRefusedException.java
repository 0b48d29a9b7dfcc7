package dev.sluice.batch.job;

import dev.sluice.core.SluiceException;

/** A run that Sluice will not start as asked (a COMPLETED partition without --rerun, a run in progress). */
public class RunRefusedException extends SluiceException {
    public RunRefusedException(String message) {
        super(message);
    }
}
