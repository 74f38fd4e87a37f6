package dev.cabinet.query;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.http.Problems;

/** Checks a client's {@code limit} against the configured bounds and applies the default. */
@ApplicationScoped
public class PageRequests {

    private final QueryConfig config;

    PageRequests(QueryConfig config) {
        this.config = config;
    }

    /** The limit comes as text: JAX-RS would answer an unparsable number with a 404, this answers a 400 naming it. */
    public PageRequest of(String limitParam, String cursor) {
        Integer limit = parse(limitParam);
        if (limit != null && (limit < 1 || limit > config.maxLimit())) {
            throw Problems.badRequest("limit", "must be between 1 and " + config.maxLimit());
        }
        if (cursor != null && cursor.isEmpty()) {
            throw Problems.badRequest("cursor", "must not be empty");
        }
        return new PageRequest(limit == null ? config.defaultLimit() : limit, cursor);
    }

    private Integer parse(String limit) {
        if (limit == null) {
            return null;
        }
        try {
            return Integer.valueOf(limit.trim());
        } catch (NumberFormatException e) {
            throw Problems.badRequest("limit", "must be a whole number between 1 and " + config.maxLimit());
        }
    }
}
