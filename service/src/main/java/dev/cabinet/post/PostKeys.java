package dev.cabinet.post;

import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;

/** Keys of a post's metadata and author-side summary, and the feed shard a post goes to. */
public final class PostKeys {

    private PostKeys() {
    }



    public static Key metadata(String postId) {
        return KeyPlan.POST.key(postId);
    }

    public static Key summary(String authorId, String createdAt, String postId) {
        return KeyPlan.USER_POST.key(authorId, createdAt, postId);
    }



    /** The feed shard of a post: stable for a post id ({@link String#hashCode} is specified by the language). */
    public static int feedShard(String postId, int shards) {
        return Math.floorMod(postId.hashCode(), shards);
    }


}
