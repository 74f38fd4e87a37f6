package dev.cabinet.post;

import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;

/** Keys of a post's metadata and author-side summary. */
public final class PostKeys {

    private PostKeys() {
    }



    public static Key metadata(String postId) {
        return KeyPlan.POST.key(postId);
    }

    public static Key summary(String authorId, String createdAt, String postId) {
        return KeyPlan.USER_POST.key(authorId, createdAt, postId);
    }



}
