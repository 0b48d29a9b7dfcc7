/**
 * The scheduler: Quartz with its JDBC job store in the warehouse (clustered), one cron trigger per
 * scheduled pipeline. The only package that imports Quartz.
 */
@NullMarked
package dev.sluice.app.schedule;

import org.jspecify.annotations.NullMarked;
