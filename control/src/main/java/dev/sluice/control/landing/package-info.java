/**
 * Landed source files and their loads ({@code sluice.landed_file}): a file loads once per (Bronze table, partition, sha256); which load is current.
 */
@NullMarked
package dev.sluice.control.landing;

import org.jspecify.annotations.NullMarked;
