/**
 * The pipeline design contract: design rules ({@code sluice validate}) and mode advice
 * ({@code sluice advise}), both judged from the spec alone.
 */
@NullMarked
package dev.sluice.config.design;

import org.jspecify.annotations.NullMarked;
