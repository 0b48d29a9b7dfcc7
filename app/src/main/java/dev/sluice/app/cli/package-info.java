/**
 * The picocli command line: validate, sample-data, run, quickstart, sql.
 */
package dev.sluice.app.cli;
