package dev.cabinet.post;

import dev.cabinet.table.Index;
import dev.cabinet.table.IndexEntry;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;

/** Keys of a comment: its item in the post's partition, and its entries in GSI1 (by id) and GSI2 (by author). */
public final class CommentKeys {

    private static final IndexEntry BY_ID = KeyPlan.COMMENT.entryIn(Index.GSI1).orElseThrow();
    private static final IndexEntry BY_AUTHOR = KeyPlan.COMMENT.entryIn(Index.GSI2).orElseThrow();

    private CommentKeys() {
    }

    public static Key comment(String postId, String createdAt, String commentId) {
        return KeyPlan.COMMENT.key(postId, createdAt, commentId);
    }

    public static String byIdPartition(String commentId) {
        return BY_ID.pk().render(commentId);
    }

    public static String byIdSortKey(String postId) {
        return BY_ID.sk().render(postId);
    }

    public static String byAuthorPartition(String userId) {
        return BY_AUTHOR.pk().render(userId);
    }

    public static String byAuthorSortKey(String createdAt, String commentId) {
        return BY_AUTHOR.sk().render(createdAt, commentId);
    }
}
