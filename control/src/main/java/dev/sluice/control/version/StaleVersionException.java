package dev.sluice.control.version;

import dev.sluice.core.RetriableSluiceException;

/**
 * A {@code merge-on-key} version was not published because the version it was built on is no longer
 * the published one: another run published meanwhile, and publishing this version would drop the rows
 * that run added; or its version number was taken meanwhile by a run in another process. Or a version
 * of any table was pruned while it waited for publication ({@link PartitionVersions#pruned}). Retriable:
 * the step's retry (or a plain run) restarts the failed step; a gate step whose version was refused
 * first builds the next version on the one now published ({@code GateStep#prepare}). The check an
 * Iceberg commit makes that what it read is still current (Iceberg spec, "Optimistic Concurrency").
 */
public final class StaleVersionException extends RetriableSluiceException {

    public StaleVersionException(String message) {
        super(message, null);
    }

    public StaleVersionException(String message, Throwable cause) {
        super(message, cause);
    }
}
