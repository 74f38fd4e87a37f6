package dev.cabinet.table;

/**
 * The one rule that puts a value in one of N shards: the feed entry of a post, an order's date shard, a metric sample,
 * a counter change. Deterministic for the value ({@link String#hashCode} is specified by the language), so a
 * redelivered event, a redo and a rebuild from the log pick the same shard as the first application did.
 */
public final class Shards {

    /**
     * How many items each sharded counter (a post's likeCount and commentCount, a group's memberCount) is spread over.
     * It may grow, never shrink: reads sum shards 0..n-1, and a smaller n would drop what the higher shards counted.
     */
    public static final String COUNTER_SHARDS = "cabinet.counters.shards";
    public static final String DEFAULT_COUNTER_SHARDS = "8";

    private Shards() {
    }

    /** The shard of {@code value} among {@code shards}, in 0..shards-1. */
    public static int of(String value, int shards) {
        return Math.floorMod(value.hashCode(), shards);
    }
}
