package dev.cabinet.post;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import dev.cabinet.post.PostEvent.PostCreated;
import dev.cabinet.post.PostEvent.PostDeleted;
import dev.cabinet.post.PostEvent.PostEdited;
import dev.cabinet.post.PostEvent.PostPublished;
import dev.cabinet.projection.Reads;
import dev.cabinet.projection.StreamTarget;
import dev.cabinet.projection.WritePlan.DeleteCollection;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.Shards;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Post decisions, event type by event type: given the items read, the plan (as its text). No store. */
class PostProjectorTest {

    private static final String T = "2026-01-31T12:00:00.000Z";
    private static final Key PROFILE = KeyPlan.USER_PROFILE.key("u1");
    private static final Map<String, AttributeValue> ADA = Map.of("userId", s("u1"), "name", s("Ada"),
            "userVersion", n(7), "registeredAt", s(T));
    private static final Map<String, AttributeValue> POST = Map.of("postId", s("p1"), "authorId", s("u1"),
            "createdAt", s(T), "title", s("Hi"), "postVersion", n(20));

    private final PostProjector projector = new PostProjector(4);

    @Test
    void aNewPostCopiesItsAuthorsNameIsCountedOnceAndTakesASecondLookAtTheName() {
        PostCreated created = new PostCreated("p1", "u1", "Hi", "Text", T);
        assertEquals(StreamTarget.creating(KeyPlan.POST_STREAM, "p1"), projector.target(created));
        assertEquals(List.of(PROFILE), projector.needs(created));
        assertEquals("onRoot(POST#p1/METADATA: SET type = \"Post\", postId = \"p1\", authorId = \"u1\", title = \"Hi\", "
                + "body = \"Text\", status = \"draft\", createdAt = \"" + T + "\", authorName = \"Ada\", "
                + "profileVersion = 7) then ["
                + "Write[update=USER#u1/POST#" + T + "#p1: SET type = \"UserPost\", postId = \"p1\", title = \"Hi\", "
                + "createdAt = \"" + T + "\", status = if_not_exists(status, \"draft\")], "
                + "Count[counter=USER#u1 / PROFILE, counterType=UserProfile, attribute=postCount, delta=1, "
                + "marker=USER#u1 / POST#" + T + "#p1, markerFlag=countedInPostCount], "
                + "CopyCheck[source=USER#u1 / PROFILE, copiedVersion=7, holders=[POST#p1 / METADATA, "
                + "USER#u1 / POST#" + T + "#p1]]]",
                projector.decide(created, new Reads(Optional.empty(), Map.of(PROFILE, Optional.of(ADA)))).toString());
    }

    @Test
    void aPostByAnAuthorWithoutAProfileCopiesNothingAndAnyProfileLaterReplacesIt() {
        PostCreated created = new PostCreated("p1", "u1", "Hi", "Text", T);
        String plan = projector.decide(created, new Reads(Optional.empty(), Map.of(PROFILE, Optional.empty())))
                .toString();
        assertEquals(true, plan.contains("createdAt = \"" + T + "\", profileVersion = -1)"), plan);
        assertEquals(true, plan.contains("CopyCheck[source=USER#u1 / PROFILE, copiedVersion=-1"), plan);
    }

    /**
     * Each write keeps the version of the author's profile the post copied last, and the second look at the profile
     * follows: an erasure whose walk passed between the read and the writes is then found, and the text replaced.
     */
    @Test
    void anEditChangesThePostAndTheSummarysTitleAndLooksAtItsAuthorsProfileAgain() {
        Map<String, AttributeValue> copied = new java.util.HashMap<>(POST);
        copied.put("profileVersion", n(7));
        assertEquals("onRoot(POST#p1/METADATA: SET type = \"Post\", postId = \"p1\", title = \"New\", "
                + "profileVersion = 7) then ["
                + "Write[update=USER#u1/POST#" + T + "#p1: SET type = \"UserPost\", postId = \"p1\", title = \"New\", "
                + "createdAt = \"" + T + "\", profileVersion = 7 IF attribute_exists(pk)], "
                + "CopyCheck[source=USER#u1 / PROFILE, copiedVersion=7, holders=[POST#p1 / METADATA, "
                + "USER#u1 / POST#" + T + "#p1]]]",
                projector.decide(new PostEdited("p1", "New", null), new Reads(Optional.of(copied), Map.of()))
                        .toString());
    }

    @Test
    void aPostOfAnErasedAuthorHoldsThePlaceholderWhereverTheyWroteAndAnEditChangesNothing() {
        Map<String, AttributeValue> erased = new java.util.HashMap<>(ADA);
        erased.put("name", s("[erased]"));
        erased.put("erasedAt", s(T));
        String plan = projector.decide(new PostCreated("p1", "u1", "Hi", "Text", T),
                new Reads(Optional.empty(), Map.of(PROFILE, Optional.of(erased)))).toString();
        assertEquals(true, plan.contains("title = \"[erased]\", body = \"[erased]\""), plan);
        assertEquals(true, plan.contains("SET type = \"UserPost\", postId = \"p1\", createdAt = \"" + T
                + "\", status = if_not_exists(status, \"draft\"), title = \"[erased]\""), plan);
        assertEquals(false, plan.contains("\"Hi\"") || plan.contains("\"Text\""), plan);

        Map<String, AttributeValue> post = new java.util.HashMap<>(POST);
        post.put("subjectErasedAt", s(T));
        assertEquals("onRoot(null) then []", projector.decide(new PostEdited("p1", "New", "B"),
                new Reads(Optional.of(post), Map.of())).toString());
    }

    @Test
    void anEditOfTheBodyAloneLeavesTheSummary() {
        assertEquals("onRoot(POST#p1/METADATA: SET type = \"Post\", postId = \"p1\", body = \"B\", "
                + "profileVersion = -1) then [CopyCheck[source=USER#u1 / PROFILE, copiedVersion=-1, "
                + "holders=[POST#p1 / METADATA]]]",
                projector.decide(new PostEdited("p1", null, "B"), root()).toString());
    }

    @Test
    void publishingPutsThePostIntoItsFeedShard() {
        int shard = Shards.of("p1", 4);
        assertEquals("onRoot(POST#p1/METADATA: SET type = \"Post\", gsi1pk = \"POSTS#PUBLISHED#" + shard + "\", "
                + "gsi1sk = \"" + T + "#p1\", postId = \"p1\", status = \"published\", publishedAt = \"" + T + "\") then ["
                + "Write[update=USER#u1/POST#" + T + "#p1: SET type = \"UserPost\", postId = \"p1\", "
                + "status = \"published\", createdAt = \"" + T + "\" IF attribute_exists(pk)]]",
                projector.decide(new PostPublished("p1", T), root()).toString());
    }

    @Test
    void publishingAPublishedPostIsRejected() {
        Map<String, AttributeValue> published = new java.util.HashMap<>(POST);
        published.put("publishedAt", s(T));
        assertEquals("reject(post p1 is already published)", projector.decide(new PostPublished("p1", T),
                new Reads(Optional.of(published), Map.of())).toString());
    }

    @Test
    void deletingLeavesATombstoneThenRemovesWhatGoesWithThePostTheCountAndTheSummary() {
        assertEquals(StreamTarget.of(KeyPlan.POST_STREAM, "p1"), projector.target(new PostDeleted("p1", T)));
        // What goes with a post is declared on each item type (KeyPlan.deletedWith): a new one needs no edit here.
        assertTrue(KeyPlan.deletedWith(KeyPlan.POST).contains(KeyPlan.COMMENT), "its comments go with it");
        String owned = KeyPlan.deletedWith(KeyPlan.POST).stream()
                .map(type -> new DeleteCollection(type.collectionUnder(Map.of(Attributes.POST_ID, "p1"))) + ", ")
                .collect(Collectors.joining());
        assertEquals("deleting(POST#p1/TOMBSTONE: SET type = \"PostTombstone\", postId = \"p1\", deletedAt = \"" + T
                + "\") then [" + owned
                + "Count[counter=USER#u1 / PROFILE, counterType=UserProfile, attribute=postCount, delta=-1, "
                + "marker=USER#u1 / POST#" + T + "#p1, markerFlag=uncountedFromPostCount], "
                + "Delete[key=USER#u1 / POST#" + T + "#p1]]",
                projector.decide(new PostDeleted("p1", T), root()).toString());
        assertTrue(owned.contains("partition=POST#p1, sortKey=SortKeyCondition[kind=BEGINS_WITH, from=COMMENT#"), owned);
    }

    private static Reads root() {
        return new Reads(Optional.of(POST), Map.of());
    }

    static AttributeValue s(String text) {
        return AttributeValue.fromS(text);
    }

    static AttributeValue n(long number) {
        return AttributeValue.fromN(Long.toString(number));
    }
}
