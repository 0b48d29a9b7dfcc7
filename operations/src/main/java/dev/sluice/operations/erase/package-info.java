/**
 * Erasure requests: redacting a data subject's raw values from Bronze and the quarantine, with an
 * audit record ({@code sluice.erasure_log}).
 */
@NullMarked
package dev.sluice.operations.erase;

import org.jspecify.annotations.NullMarked;
