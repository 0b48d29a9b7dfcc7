/**
 * The terminal of a sluice process: one stderr shared by progress bars and the log's console lines,
 * so that a warning prints above the bar instead of glued onto it; the bar's rate and ETA come from
 * the recent pace.
 */
@NullMarked
package dev.sluice.app.console;

import org.jspecify.annotations.NullMarked;
