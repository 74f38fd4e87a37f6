package dev.cabinet.query;

import dev.cabinet.table.Index;

/** A Query that names its partition key and constrains its sort key by key condition only: no filter exists here. */
public record KeyQuery(Index index, String partition, SortKeyCondition sortKey, boolean newestFirst) {

    public static KeyQuery of(Index index, String partition, SortKeyCondition sortKey, boolean newestFirst) {
        return new KeyQuery(index, partition, sortKey, newestFirst);
    }
}
