package dev.cabinet.query;

import java.util.Map;

/**
 * Where a merged read stands in one shard: not started ({@code after} null), after the key of the last item it took
 * from that shard, or done.
 */
public record ShardPosition(Map<String, String> after, boolean done) {

    public static final ShardPosition START = new ShardPosition(null, false);
    public static final ShardPosition DONE = new ShardPosition(null, true);

    public static ShardPosition after(Map<String, String> key) {
        return new ShardPosition(key, false);
    }
}
