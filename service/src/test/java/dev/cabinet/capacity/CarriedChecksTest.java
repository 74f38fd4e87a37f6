package dev.cabinet.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.DomainEvent;
import dev.cabinet.eventlog.EventType;
import dev.cabinet.eventlog.LogPosition;
import dev.cabinet.eventlog.Topics;
import dev.cabinet.post.CommentEvent.CommentAdded;
import dev.cabinet.post.CommentEvent;
import dev.cabinet.post.PostEvent.PostCreated;
import dev.cabinet.post.PostEvent;
import dev.cabinet.projection.contract.ReceivedEvent;
import dev.cabinet.projection.execution.ModelProjection;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.user.UserEvent.UserRegistered;
import dev.cabinet.user.UserEvent;
import io.quarkus.test.junit.QuarkusTest;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;

/**
 * A copy check waits for its batch's end, and the projector crashes first: no check may be lost. Two projectors share
 * one model store: the first applies and "crashes" (its batch never ends), the second takes the redelivered events. The
 * first comment of a post copies its author's name; the author is then renamed as a rename whose walk ran before the
 * comment existed leaves things (the comment not reached), so only the comment's check can repair it.
 */
@QuarkusTest
class CarriedChecksTest {

    private static final String AUTHOR = "u01M8Y0000000000000000000A1";
    private static final String POST = "01M8Y0000000000000000000P1";
    private static final CommentAdded FIRST = comment("01M8Y0000000000000000000C1", "2026-06-01T10:00:02.000Z");
    private static final CommentAdded SECOND = comment("01M8Y0000000000000000000C2", "2026-06-01T10:00:03.000Z");

    @Inject
    CapacityModels models;

    private final Key profile = KeyPlan.USER_PROFILE.key(AUTHOR);
    private ModelStore store;
    private ModelProjection crashed;

    /** The author, their post and its first comment applied, its check not made; then the rename the comment missed. */
    @BeforeEach
    void commentedAndRenamed() {
        store = new ModelStore();
        crashed = models.projection(store);
        apply(crashed, UserEvent.REGISTERED, Topics.USERS, 1,
                new UserRegistered(AUTHOR, "Before", "before@example.org", null, "2026-06-01T10:00:00.000Z"));
        apply(crashed, PostEvent.CREATED, Topics.POSTS, 1,
                new PostCreated(POST, AUTHOR, "Title", "Body", "2026-06-01T10:00:01.000Z"));
        store.drive(crashed.check());
        store.drive(crashed.settle());
        apply(crashed, CommentEvent.ADDED, Topics.POSTS, 2, FIRST);
        renamedWithoutReachingTheComment();
    }

    /**
     * The crash comes while the first comment's check is in flight: the second comment, which started it, waits for it
     * before it is recorded, so the stream's latest event is still the first comment, whose redo makes the check.
     */
    @Test
    void aCheckInFlightWhenTheProjectorCrashesIsMadeByItsEventsRedo() {
        store.answerGetItems(profile, ModelStore.GetItemAnswer.NONE);
        CompletableFuture<Void> second = crashed.apply(received(CommentEvent.ADDED, Topics.POSTS, 3, SECOND))
                .subscribeAsCompletionStage();
        while (store.round()) {
            // the second comment's reads are answered; the check's look at the profile never is
        }
        assertFalse(second.isDone(), "the second comment waits for the first one's check");
        store.answerGetItems(profile, ModelStore.GetItemAnswer.ITEM);

        ModelProjection next = models.projection(store);
        apply(next, CommentEvent.ADDED, Topics.POSTS, 2, FIRST);
        apply(next, CommentEvent.ADDED, Topics.POSTS, 3, SECOND);
        store.drive(next.check());

        assertEquals("After", authorNameOn(FIRST), "the first comment's redo made its check");
    }

    /**
     * The first comment's check fails (the store refuses it); the second comment is recorded with that check among its
     * own steps, and the crash comes before the check is made again: the first comment is done when redelivered, and
     * the second comment's redo makes the check.
     */
    @Test
    void aCheckThatFailedIsMadeByTheRedoOfTheStreamsNextEvent() {
        store.answerGetItems(profile, ModelStore.GetItemAnswer.REFUSAL);
        apply(crashed, CommentEvent.ADDED, Topics.POSTS, 3, SECOND);
        store.answerGetItems(profile, ModelStore.GetItemAnswer.ITEM);

        ModelProjection next = models.projection(store);
        apply(next, CommentEvent.ADDED, Topics.POSTS, 2, FIRST);   // done: the stream is past it
        store.drive(next.check());
        assertEquals("Before", authorNameOn(FIRST), "nothing repaired the comment yet");
        apply(next, CommentEvent.ADDED, Topics.POSTS, 3, SECOND);
        store.drive(next.check());

        assertEquals("After", authorNameOn(FIRST), "the second comment's redo made the first one's check");
    }

    private static CommentAdded comment(String commentId, String createdAt) {
        return new CommentAdded(POST, commentId, AUTHOR, "Text", createdAt);
    }

    /** The author renamed, as a rename whose walk ran before the comment existed leaves things: the comment not reached. */
    private void renamedWithoutReachingTheComment() {
        Map<String, AttributeValue> renamed = new HashMap<>(store.item(profile));
        long version = Long.parseLong(renamed.get("userVersion").n());
        renamed.put(Attributes.NAME, AttributeValue.fromS("After"));
        renamed.put("userVersion", AttributeValue.fromN(Long.toString(version + 1)));
        store.drive(store.putItem(PutItemRequest.builder().tableName("model").item(renamed).build())
                .thenApply(response -> null));
    }

    private String authorNameOn(CommentAdded comment) {
        Map<String, AttributeValue> item = store.item(KeyPlan.COMMENT.key(POST, comment.createdAt(),
                comment.commentId()));
        assertTrue(item != null, "the comment is there");
        return item.get("authorName").s();
    }

    private void apply(ModelProjection projection, EventType<?> type, String topic,
            long offset, DomainEvent data) {
        store.drive(projection.apply(received(type, topic, offset, data)).subscribeAsCompletionStage());
    }

    private static ReceivedEvent received(EventType<?> type, String topic, long offset, DomainEvent data) {
        return new ReceivedEvent("01M8YE00000000000000000" + topic.length() + offset, type.name(),
                data instanceof UserRegistered ? AUTHOR : POST, AUTHOR, Instant.parse("2026-06-01T10:00:00Z"),
                data, new LogPosition(topic, 0, offset));
    }
}
