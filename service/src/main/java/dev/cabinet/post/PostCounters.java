package dev.cabinet.post;

import java.util.List;
import java.util.Map;

import dev.cabinet.table.Attributes;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.Shards;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The post's counter shards: their keys, how to tell them among the post's items, and one counter's change. */
public final class PostCounters {

    private PostCounters() {
    }


    /** The post's counter shard {@code shard} (its likeCount and commentCount, {@link KeyPlan#POST_COUNTER}). */
    public static Key counter(String postId, int shard) {
        return KeyPlan.POST_COUNTER.key(postId, shard);
    }

    /** Every counter shard key of the post, for a batched read. */
    public static List<Key> counters(String postId, int shards) {
        return Shards.keys(KeyPlan.POST_COUNTER, postId, shards);
    }

    /** Whether an item of the post's partition is one of its counter shards (patterns 3 and its feed return them). */
    public static boolean isCounter(Map<String, AttributeValue> item) {
        return Shards.isShard(item, KeyPlan.POST_COUNTER);
    }

    /**
     * {@code delta} on the post's {@code attribute}, on the shard of {@code shardedBy}: a write of a step of the post's
     * own stream, which the executor guards by the stream's version, so a redo or redelivery of the event does not
     * count it twice.
     */
    static ItemUpdate count(String postId, String shardedBy, int shards, String attribute, long delta) {
        return KeyPlan.POST_COUNTER.write(Map.of(Attributes.POST_ID, postId,
                Attributes.SHARD, Shards.of(shardedBy, shards))).increment(attribute, delta);
    }
}
