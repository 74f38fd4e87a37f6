package dev.cabinet.table.query;

import jakarta.enterprise.context.RequestScoped;

/**
 * Whether this request's reads must be strongly consistent: a request that waited for a log position reads the table
 * with ConsistentRead, or an eventually consistent read could still answer from before that position. GSIs cannot be
 * read consistently; DynamoDB propagates them asynchronously.
 */
@RequestScoped
public class ReadConsistency {

    private boolean strong;

    public boolean strong() {
        return strong;
    }

    public void requireStrong() {
        strong = true;
    }
}
