/** {@code sluice serve}: the long-running server (lineage ingest; the page and metrics come later). */
@NullMarked
package dev.sluice.app.serve;

import org.jspecify.annotations.NullMarked;
