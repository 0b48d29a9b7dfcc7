package dev.sluice.engine;

import org.jspecify.annotations.Nullable;

/**
 * How an engine describes a pipeline it builds, for the design document ({@code sluice docs}) and
 * the quickstart's closing hints: Markdown sentences (no heading, no trailing newline) written by
 * the engine that knows them, so no command branches on the engine's kind.
 *
 * @param layers where Bronze, Silver and Gold live and what builds them (the design document's
 *     "Layer engine" paragraph)
 * @param versions how a Silver/Gold version is written, published and kept (a bullet of the
 *     idempotency section)
 * @param gates what a gate judges before publication (the first sentence of the gates section)
 * @param quickstart the engine and why it is (or is not) the fastest one on one machine, as the
 *     quickstart prints it: plain text, lines ending in newlines
 * @param quickstartTwin the suffix of a shipped pipeline holding the same data on the other engine,
 *     suggested after a quickstart ({@code _lake} for the warehouse engine); null for none
 * @param keepsFiles true when the engine keeps files of its own that a purge may find orphaned
 *     ({@code sluice purge --orphan-grace} applies)
 * @param sqlSeesControlTables true when {@code sluice sql} ({@link TableReads#query}) sees the control
 *     plane's {@code sluice.*} tables (quarantine, runs) beside the pipeline's: the layers are tables
 *     of the warehouse database
 */
public record EngineDescription(String layers, String versions, String gates, String quickstart, @Nullable String quickstartTwin,
        boolean keepsFiles, boolean sqlSeesControlTables) {
}
