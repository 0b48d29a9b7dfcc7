package dev.sluice.batch.gate;

import dev.sluice.core.SluiceException;

/**
 * A gate with a FAILED {@code error} check: the step fails, the partition's new version stays
 * unpublished, and a restart re-evaluates the gate (after the data or the check is fixed).
 */
public class GateFailedException extends SluiceException {
    public GateFailedException(String message) {
        super(message);
    }
}
