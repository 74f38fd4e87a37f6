package dev.cabinet.table.query;

import jakarta.enterprise.context.ApplicationScoped;

/** Checks a client's {@code limit} against the configured bounds and applies the default. */
@ApplicationScoped
public class PageRequests {

    private final QueryConfig config;

    PageRequests(QueryConfig config) {
        this.config = config;
    }

    /** A list endpoint's page; a bad limit or an empty cursor is an {@link InvalidQueryException} naming it. */
    public PageRequest of(String limitParam, String cursor) {
        int limit = limit(limitParam);
        if (cursor != null && cursor.isEmpty()) {
            throw new InvalidQueryException("cursor", "must not be empty");
        }
        return new PageRequest(limit, cursor);
    }

    /** The page size alone, for reads that embed a first page (a post with its comments) and have no cursor. */
    public int limit(String limitParam) {
        Integer limit = parse(limitParam);
        if (limit != null && (limit < 1 || limit > config.maxLimit())) {
            throw new InvalidQueryException("limit", "must be between 1 and " + config.maxLimit());
        }
        return limit == null ? config.defaultLimit() : limit;
    }

    private Integer parse(String limit) {
        if (limit == null) {
            return null;
        }
        try {
            return Integer.valueOf(limit.trim());
        } catch (NumberFormatException e) {
            throw new InvalidQueryException("limit", "must be a whole number between 1 and " + config.maxLimit());
        }
    }
}
