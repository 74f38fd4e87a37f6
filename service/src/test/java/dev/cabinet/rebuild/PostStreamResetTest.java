package dev.cabinet.rebuild;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.Topics;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.TableWriter;
import dev.cabinet.table.Values;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Which items a post stream's rebuild resets, and which it leaves to the streams that own them (no I/O). */
class PostStreamResetTest {

    private static final String POST = "p1";
    private static final String CREATED_AT = "2026-06-01T10:00:00.000Z";
    private static final RecordedEvent CREATION = event(0, "e-created", "{\"postId\":\"p1\",\"authorId\":\"ann\","
            + "\"title\":\"T\",\"body\":\"B\",\"createdAt\":\"" + CREATED_AT + "\"}");
    private static final RecordedEvent COMMENT = event(1, "e-comment", "{\"postId\":\"p1\",\"commentId\":\"c1\","
            + "\"authorId\":\"bob\",\"text\":\"Hi\",\"title\":\"not a post\",\"createdAt\":\"" + CREATED_AT + "\"}");

    @Test
    void thePostsOwnItemsGoItsCounterShardsLoseOnlyTheCommentCountAndItsCountsOnTheAuthorAreHeld() {
        List<Map<String, AttributeValue>> partition = List.of(
                item(KeyPlan.POST.key(POST), Attributes.TITLE, "T"),
                item(KeyPlan.POST_TOMBSTONE.key(POST), Attributes.POST_ID, POST),
                item(commentKey("c1"), Attributes.TEXT, "Hi"),
                item(KeyPlan.POST_COUNTER.key(POST, 3), Attributes.LIKE_COUNT, "5"),
                item(KeyPlan.POST.key("p2"), Attributes.TITLE, "another post's"));

        PostStreamReset.Reset reset = PostStreamReset.of(POST, partition, CREATION, List.of("e-deleted"));

        Key summary = KeyPlan.USER_POST.keyFrom(Values.of(Attributes.USER_ID, "ann", Attributes.CREATED_AT, CREATED_AT,
                Attributes.POST_ID, POST));
        assertEquals(List.of(KeyPlan.POST.key(POST), KeyPlan.POST_TOMBSTONE.key(POST), commentKey("c1"), summary),
                reset.deletes(), "the metadata, tombstone, comments and the author's summary; no other post's item");
        assertEquals(1, reset.resets().size());
        String shardReset = reset.resets().get(0).toString();
        assertTrue(shardReset.contains(Attributes.COMMENT_COUNT) && shardReset.contains("postVersion"), shardReset);
        assertFalse(shardReset.contains(Attributes.LIKE_COUNT), "the likes' count is the like streams': " + shardReset);
        assertFalse(shardReset.contains(TableWriter.PENDING_COUNTS), "their pending tokens too: " + shardReset);
        assertEquals(KeyPlan.USER_PROFILE.key("ann"), reset.counter(), "the author's postCount is counted on, not reset");
        assertEquals(Set.of("e-created", "e-deleted"), reset.tokens());
    }

    @Test
    void asAStreamResetItHoldsTheCountsOfTheCreationAndOfEveryDeletionWhereverItIs() {
        StreamReset.Reset reset = new PostStreamReset().reset(POST, List.of(), List.of(CREATION, COMMENT));
        assertEquals(KeyPlan.USER_PROFILE.key("ann"), reset.counter());
        assertEquals(Set.of("e-created"), reset.tokens(), "a comment counts on the post's shards, not the author");
        assertEquals("POST#p1", new PostStreamReset().partition(POST));

        // A deletion followed by events the projector rejected: a late comment, a second deletion.
        RecordedEvent deletion = event(2, "e-deleted", "{\"postId\":\"p1\",\"deletedAt\":\"" + CREATED_AT + "\"}");
        RecordedEvent commentDeletion = event(3, "e-comment-deleted", "{\"postId\":\"p1\",\"commentId\":\"c1\","
                + "\"deletedAt\":\"" + CREATED_AT + "\"}");
        RecordedEvent again = event(4, "e-deleted-again", "{\"postId\":\"p1\",\"deletedAt\":\"" + CREATED_AT + "\"}");
        reset = new PostStreamReset().reset(POST, List.of(),
                List.of(CREATION, COMMENT, deletion, commentDeletion, again, COMMENT));
        assertEquals(Set.of("e-created", "e-deleted", "e-deleted-again"), reset.tokens(),
                "the deletions count on the author's postCount; the comment's deletion does not");
    }

    @Test
    void everyKindIsRebuiltOnItsOwnTopicAndOthersAreNot() {
        StreamRebuilds.KINDS.forEach((topic, kind) -> assertEquals(topic, kind.topic()));
        assertEquals(Set.of(Topics.POSTS, Topics.CUSTOMERS, Topics.GROUPS, Topics.FILES, Topics.USERS),
                StreamRebuilds.KINDS.keySet(), "folders and metrics are rebuilt blue/green");
    }

    @Test
    void withoutItsCreationInTheLogNothingOutsideThePostsPartitionIsTouched() {
        PostStreamReset.Reset reset = PostStreamReset.of(POST, List.of(), null, List.of("e-deleted"));
        assertEquals(List.of(), reset.deletes());
        assertNull(reset.counter());
        assertEquals(Set.of(), reset.tokens());
    }

    @Test
    void theCreationIsThePostsFirstEventNamingAnAuthorAndATitleNotAComment() {
        assertEquals("e-created", PostStreamReset.creation(POST, List.of(COMMENT, CREATION)).id());
        assertNull(PostStreamReset.creation("p2", List.of(COMMENT, CREATION)));
    }

    @Test
    void aKeyIsAPostStreamWhenItsEventsNameItAsTheirPostButNotAUsersLikes() {
        assertTrue(PostStreamReset.isPostStream(POST, List.of(CREATION, COMMENT, event(2, "e-bad", "{not json"))));
        RecordedEvent like = event(3, "e-like", "{\"postId\":\"p1\",\"userId\":\"ann\",\"likedAt\":\"" + CREATED_AT
                + "\"}");
        assertFalse(PostStreamReset.isPostStream("ann", List.of(like)));
        assertFalse(PostStreamReset.isPostStream(POST, List.of(event(4, "e-bad", "{not json"))));
    }

    @Test
    void eventIdsAndDataAreReadInEitherContentMode() {
        ConsumerRecord<String, byte[]> structured = new ConsumerRecord<>("cabinet.posts", 0, 9, POST,
                ("{\"specversion\":\"1.0\",\"id\":\"e-s\",\"type\":\"cabinet.post.edited.v1\",\"data\":{\"postId\":\"p1\","
                        + "\"title\":\"S\"}}").getBytes(StandardCharsets.UTF_8));
        structured.headers().add("content-type", "application/cloudevents+json".getBytes(StandardCharsets.UTF_8));
        RecordedEvent read = RecordedEvent.of(structured);
        assertEquals("e-s", read.id());
        assertEquals("S", read.field(Attributes.TITLE));
        assertEquals("e-created", CREATION.id());
        assertEquals("ann", CREATION.field(Attributes.AUTHOR_ID));
    }

    private static RecordedEvent event(long offset, String id, String data) {
        ConsumerRecord<String, byte[]> record = new ConsumerRecord<>("cabinet.posts", 0, offset, POST,
                data.getBytes(StandardCharsets.UTF_8));
        record.headers().add("ce_id", id.getBytes(StandardCharsets.UTF_8));
        record.headers().add("content-type", "application/json".getBytes(StandardCharsets.UTF_8));
        return RecordedEvent.of(record);
    }

    private static Key commentKey(String commentId) {
        return KeyPlan.COMMENT.keyFrom(Values.of(Attributes.POST_ID, POST, Attributes.CREATED_AT, CREATED_AT,
                Attributes.COMMENT_ID, commentId));
    }

    private static Map<String, AttributeValue> item(Key key, String attribute, String value) {
        Map<String, AttributeValue> item = new HashMap<>(key.toAttributes());
        item.put(attribute, attribute.equals(Attributes.LIKE_COUNT) ? AttributeValue.fromN(value)
                : AttributeValue.fromS(value));
        return item;
    }
}
