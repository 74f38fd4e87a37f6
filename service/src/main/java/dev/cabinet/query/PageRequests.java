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

    public PageRequest of(Integer limit, String cursor) {
        if (limit != null && (limit < 1 || limit > config.maxLimit())) {
            throw Problems.badRequest("limit", "must be between 1 and " + config.maxLimit());
        }
        if (cursor != null && cursor.isEmpty()) {
            throw Problems.badRequest("cursor", "must not be empty");
        }
        return new PageRequest(limit == null ? config.defaultLimit() : limit, cursor);
    }
}
