/** The Sluice application: Spring Boot main and (later) the scheduler and the web page. */
@NullMarked
package dev.sluice.app;

import org.jspecify.annotations.NullMarked;
