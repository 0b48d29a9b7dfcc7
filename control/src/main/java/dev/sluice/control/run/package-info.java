/**
 * Attempts of job instances ({@code sluice.run}): identity (pipeline, partition, attempt), status, stop cause, summary and lineage counts; who owns a running attempt (host, process).
 */
@NullMarked
package dev.sluice.control.run;

import org.jspecify.annotations.NullMarked;
