package dev.sluice.app.serve;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.util.Map;

/**
 * Puts the same security headers on every answer of a {@link LineageServer} context, before its
 * handler runs, so the page, its assets, the API, the metrics and every error (401, 404, 405, 500)
 * carry them alike (docs/serve.md, "Security headers"):
 * <ul>
 *   <li>{@value #CONTENT_SECURITY_POLICY_NAME}: {@value #CONTENT_SECURITY_POLICY}. Nothing by default;
 *       scripts, styles, images and API calls only from this server; no inline script, no inline style,
 *       no {@code eval} (the page has none: {@code app/src/main/web}); no {@code <base>}, no form
 *       submission (the search form is handled by script), no framing (CSP Level 3 §6.4.2).</li>
 *   <li>{@code X-Content-Type-Options: nosniff}: scripts and styles run only with their declared type.</li>
 *   <li>{@code X-Frame-Options: DENY}: no framing, for browsers without {@code frame-ancestors}.</li>
 *   <li>{@code Referrer-Policy: no-referrer}: no address of this server leaves in a {@code Referer}.</li>
 * </ul>
 * A handler may still set other headers (Content-Type, Allow, Cache-Control). Answers the JDK's
 * server writes by itself (a malformed request line, say) come before any filter and carry none.
 * Stateless and thread-safe.
 */
public final class SecurityHeadersFilter extends Filter {

    /** The name of the CSP header. */
    public static final String CONTENT_SECURITY_POLICY_NAME = "Content-Security-Policy";

    /** The Content-Security-Policy of every answer. */
    public static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self';"
            + " connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    /** Every header this filter sets, by name, with its value. */
    public static final Map<String, String> HEADERS = Map.of(
            CONTENT_SECURITY_POLICY_NAME, CONTENT_SECURITY_POLICY,
            "X-Content-Type-Options", "nosniff",
            "X-Frame-Options", "DENY",
            "Referrer-Policy", "no-referrer");

    /** Adds a filter to {@code context} and returns the context. */
    static HttpContext on(HttpContext context) {
        context.getFilters().add(new SecurityHeadersFilter());
        return context;
    }

    @Override
    public void doFilter(HttpExchange exchange, Chain chain) throws IOException {
        Headers headers = exchange.getResponseHeaders();
        HEADERS.forEach(headers::set);
        chain.doFilter(exchange);
    }

    @Override
    public String description() {
        return "security headers: " + String.join(", ", HEADERS.keySet());
    }
}
