package dev.sluice.batch.engine.control;

import dev.sluice.core.RetriableSluiceException;

/**
 * A {@code merge-on-key} version was not published because the version it was built on is no longer
 * the published one: another run published meanwhile, and publishing this version would drop the rows
 * that run added. Retriable: the step's retry (or a plain run) restarts the table's step, which builds
 * the next version on the one now published. The same check as an Iceberg commit's validation that
 * its base snapshot is still current (Iceberg spec, "Optimistic Concurrency").
 */
public final class StaleVersionException extends RetriableSluiceException {

    public StaleVersionException(String message) {
        super(message, null);
    }
}
