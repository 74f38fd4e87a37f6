package dev.cabinet.post;

import java.util.List;
import java.util.stream.IntStream;

import dev.cabinet.table.Index;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;

/** Keys of a post's items: its metadata, the author-side summary and its feed entry. */
public final class PostKeys {

    private PostKeys() {
    }

    public static Key tombstone(String postId) {
        return KeyPlan.POST_TOMBSTONE.key(postId);
    }

    /** The post's partition: its metadata and its comments. */
    public static String partition(String postId) {
        return KeyPlan.POST.partition(postId);
    }

    public static Key metadata(String postId) {
        return KeyPlan.POST.key(postId);
    }

    public static Key summary(String authorId, String createdAt, String postId) {
        return KeyPlan.USER_POST.key(authorId, createdAt, postId);
    }

    /** The user's partition, whose {@code POST#} items list their posts. */
    public static String postsOf(String userId) {
        return KeyPlan.USER_POST.partition(userId);
    }

    public static String summaryPrefix() {
        return KeyPlan.USER_POST.sk().prefix();
    }

    /** The feed shard of a post: stable for a post id ({@link String#hashCode} is specified by the language). */
    public static int feedShard(String postId, int shards) {
        return Math.floorMod(postId.hashCode(), shards);
    }

    public static String feedPartition(int shard) {
        return KeyPlan.POST.entryIn(Index.GSI1).orElseThrow().pk().render(shard);
    }

    /** The feed partitions, one per shard, in shard order. */
    public static List<String> feedPartitions(int shards) {
        return IntStream.range(0, shards).mapToObj(PostKeys::feedPartition).toList();
    }

    public static String feedSortKey(String publishedAt, String postId) {
        return KeyPlan.POST.entryIn(Index.GSI1).orElseThrow().sk().render(publishedAt, postId);
    }
}
