package dev.sluice.batch.backfill;

import dev.sluice.core.SluiceException;

/** A backfill that must not run as asked, e.g. reaching before the pipeline's backfill window. */
public class BackfillRefusedException extends SluiceException {
    public BackfillRefusedException(String message) {
        super(message);
    }
}
