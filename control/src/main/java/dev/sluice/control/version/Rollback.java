package dev.sluice.control.version;

import java.time.OffsetDateTime;

/**
 * One recorded rollback of a Silver/Gold partition (a layer engine's {@code rollback}).
 *
 * @param fromVersion the version published before it
 * @param toVersion the version it published
 * @param requestedBy who asked
 * @param at when, UTC
 */
public record Rollback(int fromVersion, int toVersion, String requestedBy, OffsetDateTime at) {
}
