/** Alerts: what a person must hear about (late data, failed runs, failed gates), to the log and a webhook. */
@NullMarked
package dev.sluice.operations.alert;

import org.jspecify.annotations.NullMarked;
