/**
 * The generated design document of a pipeline ({@code sluice docs}): Markdown rendered from the
 * spec alone (deterministic, committed under {@code docs/pipelines/}), plus an optional part read
 * from the warehouse (recent runs, quality history) between {@link DesignDocument#RUN_DERIVED_START}
 * and {@link DesignDocument#RUN_DERIVED_END}.
 */
@NullMarked
package dev.sluice.operations.docs;

import org.jspecify.annotations.NullMarked;
