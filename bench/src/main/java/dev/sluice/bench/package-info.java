/**
 * Benchmarks of Sluice against the baselines its users would pick instead (not shipped). The
 * benchmark issue fills this module: one command runs every measure against its baseline on the
 * same machine and writes docs/benchmarks.md.
 */
package dev.sluice.bench;
