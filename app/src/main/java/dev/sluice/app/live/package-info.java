/** The command-line side of the hot path: landed rows turned into events for {@code sluice produce}. */
@NullMarked
package dev.sluice.app.live;

import org.jspecify.annotations.NullMarked;
