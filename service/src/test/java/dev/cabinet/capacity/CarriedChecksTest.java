package dev.cabinet.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.DomainEvent;
import dev.cabinet.eventlog.EventType;
import dev.cabinet.eventlog.LogPosition;
import dev.cabinet.eventlog.Topics;
import dev.cabinet.post.CommentEvent;
import dev.cabinet.post.CommentEvent.CommentAdded;
import dev.cabinet.post.PostEvent;
import dev.cabinet.post.PostEvent.PostCreated;
import dev.cabinet.projection.ModelProjection;
import dev.cabinet.projection.ReceivedEvent;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.user.UserEvent;
import dev.cabinet.user.UserEvent.UserRegistered;
import io.quarkus.test.junit.QuarkusTest;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;

/**
 * A copy check is not made yet (it waits for its batch's end, or is under way) when the projector crashes after a
 * later event of the same stream was recorded: the redelivered first event is done (its stream is past it) and only the later one is redone.
 * The later event recorded the waiting check among its own steps, so its redo makes it. Two projectors share one model
 * store: the first applies and "crashes" (its checks are never made), the second takes the redelivered events.
 */
@QuarkusTest
class CarriedChecksTest {

    private static final String AUTHOR = "u01M8Y0000000000000000000A1";
    private static final String POST = "01M8Y0000000000000000000P1";

    @Inject
    CapacityModels models;

    @Test
    void aCheckWaitingForItsBatchsEndIsMadeByTheRedoOfTheStreamsNextEvent() {
        ModelStore store = new ModelStore();
        ModelProjection crashed = models.projection(store);
        ModelProjection next = models.projection(store);
        apply(store, crashed, UserEvent.REGISTERED, Topics.USERS, 1,
                new UserRegistered(AUTHOR, "Before", "before@example.org", null, "2026-06-01T10:00:00.000Z"));
        apply(store, crashed, PostEvent.CREATED, Topics.POSTS, 1,
                new PostCreated(POST, AUTHOR, "Title", "Body", "2026-06-01T10:00:01.000Z"));
        drive(store, crashed.check());
        drive(store, crashed.settle());

        CommentAdded first = comment("01M8Y0000000000000000000C1", "2026-06-01T10:00:02.000Z");
        apply(store, crashed, CommentEvent.ADDED, Topics.POSTS, 2, first);
        renamedWithoutReachingTheComment(store);
        // The second comment starts the first one's check, whose look at the profile is still in flight when the
        // projector crashes, right after recording the second comment: the check is never made, nor the batch's end.
        Key profile = KeyPlan.USER_PROFILE.key(AUTHOR);
        store.neverAnswerGetItems(profile);
        apply(store, crashed, CommentEvent.ADDED, Topics.POSTS, 3,
                comment("01M8Y0000000000000000000C2", "2026-06-01T10:00:03.000Z"));
        store.answerGetItems(profile);

        apply(store, next, CommentEvent.ADDED, Topics.POSTS, 2, first);   // done: the stream is past it
        assertEquals("Before", authorNameOn(store, first), "nothing repaired the comment yet");
        apply(store, next, CommentEvent.ADDED, Topics.POSTS, 3,
                comment("01M8Y0000000000000000000C2", "2026-06-01T10:00:03.000Z"));
        drive(store, next.check());

        assertEquals("After", authorNameOn(store, first), "the redo of the stream's next event made the check");
    }

    private static CommentAdded comment(String commentId, String createdAt) {
        return new CommentAdded(POST, commentId, AUTHOR, "Text", createdAt);
    }

    /** The author renamed, as a rename whose walk ran before the comment existed leaves things: the comment not reached. */
    private static void renamedWithoutReachingTheComment(ModelStore store) {
        Key profile = KeyPlan.USER_PROFILE.key(AUTHOR);
        Map<String, AttributeValue> renamed = new HashMap<>(store.item(profile));
        long version = Long.parseLong(renamed.get("userVersion").n());
        renamed.put(Attributes.NAME, AttributeValue.fromS("After"));
        renamed.put("userVersion", AttributeValue.fromN(Long.toString(version + 1)));
        drive(store, store.putItem(PutItemRequest.builder().tableName("model").item(renamed).build())
                .thenApply(response -> null));
    }

    private static String authorNameOn(ModelStore store, CommentAdded comment) {
        Map<String, AttributeValue> item = store.item(KeyPlan.COMMENT.key(POST, comment.createdAt(),
                comment.commentId()));
        assertTrue(item != null, "the comment is there");
        return item.get("authorName").s();
    }

    private static void apply(ModelStore store, ModelProjection projection, EventType<?> type, String topic,
            long offset, DomainEvent data) {
        ReceivedEvent event = new ReceivedEvent("01M8YE00000000000000000" + topic.length() + offset, type.name(),
                data instanceof UserRegistered ? AUTHOR : POST, AUTHOR, Instant.parse("2026-06-01T10:00:00Z"),
                data, new LogPosition(topic, 0, offset));
        drive(store, projection.apply(event).subscribeAsCompletionStage());
    }

    /** Answers the store's calls round by round until the work is done. */
    private static void drive(ModelStore store, CompletionStage<?> work) {
        CompletableFuture<?> done = work.toCompletableFuture();
        while (!done.isDone()) {
            if (!store.round()) {
                throw new IllegalStateException("the work waits for something other than the store");
            }
        }
        done.join();
    }
}
