package dev.cabinet.http;

import jakarta.ws.rs.QueryParam;

import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

/**
 * The paging parameters of every list endpoint, declared once ({@code @BeanParam}); {@link PageRequests#of} checks
 * them. Both come as text so that a bad {@code limit} is a 400 naming it, not JAX-RS's 404 for an unparsable number.
 */
public class PageParameters {

    @QueryParam("limit")
    @Parameter(description = "The page size, from 1 to `cabinet.query.max-limit` (100 by default); "
            + "`cabinet.query.default-limit` (20 by default) when absent")
    String limit;

    @QueryParam("cursor")
    @Parameter(description = "The `next` of the previous page, as it was; absent for the first page")
    String cursor;

    public PageParameters() {
    }

    /** For callers outside a request, e.g. tests. */
    public PageParameters(String limit, String cursor) {
        this.limit = limit;
        this.cursor = cursor;
    }

    public String limit() {
        return limit;
    }

    public String cursor() {
        return cursor;
    }
}
