package dev.cabinet.table.query;

/**
 * Where a merged read stands in one shard: not started ({@code last} null), after the sort key {@code last}, or done.
 * Sort keys of a sharded list are unique across its shards (each holds an id, or decides the shard), so "after this
 * sort key" is an exact position in every shard.
 */
public record ShardPosition(String last, boolean done) {

    public static final ShardPosition START = new ShardPosition(null, false);
    public static final ShardPosition DONE = new ShardPosition(null, true);

    public static ShardPosition after(String sortKey) {
        return new ShardPosition(sortKey, false);
    }
}
