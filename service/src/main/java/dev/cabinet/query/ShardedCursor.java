package dev.cabinet.query;

import java.util.List;

/** A merged read's cursor: the list it belongs to (its first shard's partition) and one position per shard. */
public record ShardedCursor(String list, List<ShardPosition> shards) {
}
