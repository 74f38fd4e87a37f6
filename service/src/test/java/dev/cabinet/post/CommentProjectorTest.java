package dev.cabinet.post;

import static dev.cabinet.post.PostProjectorTest.n;
import static dev.cabinet.post.PostProjectorTest.s;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.cabinet.post.CommentEvent.CommentAdded;
import dev.cabinet.post.CommentEvent.CommentDeleted;
import dev.cabinet.projection.Reads;
import dev.cabinet.projection.StreamTarget;
import dev.cabinet.projection.WritePlan;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.Shards;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Comment decisions, event type by event type: given the items read, the plan (as its text). No store. */
class CommentProjectorTest {

    private static final String T = "2026-01-31T12:00:00.000Z";
    private static final Key PROFILE = KeyPlan.USER_PROFILE.key("u2");
    private static final Key COMMENT = KeyPlan.COMMENT.key("p1", T, "c1");
    private static final Optional<Map<String, AttributeValue>> POST = Optional.of(Map.of("postId", s("p1"),
            "postVersion", n(20)));
    /** The shard of comment c1 among 8: commentCount changes there, by a write the post's stream guards. */
    private static final String SHARD = "POST#p1/COUNT#" + Shards.of("c1", 8);

    private final CommentProjector projector = new CommentProjector(8);

    @Test
    void aCommentCountsOnItsShardOfThePostAndCopiesItsAuthor() {
        CommentAdded added = new CommentAdded("p1", "c1", "u2", "Nice", T);
        assertEquals(StreamTarget.of(KeyPlan.POST_STREAM, "p1"), projector.target(added));
        assertEquals(List.of(PROFILE, COMMENT), projector.needs(added));
        Map<String, AttributeValue> bob = Map.of("name", s("Bob"), "avatarUrl", s("https://b/b.png"),
                "userVersion", n(9));
        assertEquals("onRoot(null) then ["
                + "Write[update=POST#p1/COMMENT#" + T + "#c1: SET type = \"Comment\", gsi1pk = \"COMMENT#c1\", "
                + "gsi1sk = \"POST#p1\", gsi2pk = \"AUTHOR#u2\", gsi2sk = \"" + T + "#c1\", commentId = \"c1\", "
                + "postId = \"p1\", authorId = \"u2\", text = \"Nice\", createdAt = \"" + T + "\", authorName = \"Bob\", "
                + "authorAvatar = \"https://b/b.png\", profileVersion = 9], "
                + "Write[update=" + SHARD + ": SET type = \"PostCounter\", "
                + "commentCount = if_not_exists(commentCount, 0) + 1], "
                + "CopyCheck[source=USER#u2 / PROFILE, copiedVersion=9, holders=[POST#p1 / COMMENT#" + T + "#c1]]], "
                + "alike after writing [POST#p1 / COMMENT#" + T + "#c1]",
                projector.decide(added, new Reads(POST, Map.of(PROFILE, Optional.of(bob), COMMENT, Optional.empty())))
                        .toString());
    }

    /**
     * The same addition recorded again beyond the post's recent event ids (a retry with its Idempotency-Key after an
     * unknown outcome, its ids and time the first attempt's) finds its comment there and counts nothing; an attempt of
     * this very event cut short before its recording finds its own write and decides as before.
     */
    @Test
    void anAdditionWhoseCommentIsThereAlreadyCountsNothingUnlessItWroteItItself() {
        CommentAdded added = new CommentAdded("p1", "c1", "u2", "Nice", T);
        Map<String, AttributeValue> earlier = Map.of("commentId", s("c1"), "postVersion", n(7));
        Map<String, AttributeValue> ownWrite = Map.of("commentId", s("c1"), "postVersion", n(21));

        assertEquals("onRoot(null) then []", projector.decide(added, reads(Map.of(PROFILE, Optional.empty(),
                COMMENT, Optional.of(earlier)))).toString());
        WritePlan again = projector.decide(added, reads(Map.of(PROFILE, Optional.empty(), COMMENT,
                Optional.of(ownWrite))));
        assertTrue(again.toString().contains("commentCount = if_not_exists(commentCount, 0) + 1"), again.toString());
        assertEquals(Set.of(COMMENT), again.alikeAfterWriting());
    }

    /** What the executor hands a decision of event version 21 on the post's stream. */
    private static Reads reads(Map<Key, Optional<Map<String, AttributeValue>>> items) {
        return new Reads(POST, items, Map.of(), "postVersion", 21);
    }

    @Test
    void deletingAnExistingCommentCountsItOff() {
        CommentDeleted deleted = new CommentDeleted("p1", "c1", T);
        assertEquals(List.of(COMMENT), projector.needs(deleted));
        assertEquals("onRoot(null) then ["
                + "Write[update=" + SHARD + ": SET type = \"PostCounter\", "
                + "commentCount = if_not_exists(commentCount, 0) + -1], "
                + "Delete[key=POST#p1 / COMMENT#" + T + "#c1]]",
                projector.decide(deleted, new Reads(POST, Map.of(COMMENT, Optional.of(Map.of())))).toString());
    }

    @Test
    void deletingACommentThatIsGoneChangesNoCount() {
        assertEquals("onRoot(null) then [Delete[key=POST#p1 / COMMENT#" + T + "#c1]]",
                projector.decide(new CommentDeleted("p1", "c1", T), new Reads(POST, Map.of(COMMENT, Optional.empty())))
                        .toString());
    }
}
