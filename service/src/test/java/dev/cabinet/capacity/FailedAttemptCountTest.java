package dev.cabinet.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.DomainEvent;
import dev.cabinet.eventlog.EventType;
import dev.cabinet.eventlog.LogPosition;
import dev.cabinet.eventlog.Topics;
import dev.cabinet.post.PostEvent;
import dev.cabinet.post.PostEvent.PostCreated;
import dev.cabinet.post.PostEvent.PostDeleted;
import dev.cabinet.projection.contract.ReceivedEvent;
import dev.cabinet.projection.execution.ModelProjection;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.TableWriter;
import dev.cabinet.user.UserEvent;
import dev.cabinet.user.UserEvent.UserRegistered;
import io.quarkus.test.junit.QuarkusTest;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * An attempt that fails after changing a counter (a later step failed transiently, and the engine will retry the
 * event) settles nothing: its token stays pending and its marker unflagged until an attempt that ends settles them.
 * Were its token released, a retry that read the marker before the flag landed would count a second time.
 */
@QuarkusTest
class FailedAttemptCountTest {

    private static final String AUTHOR = "u01M8Y0000000000000000000F1";
    private static final String POST = "01M8Y0000000000000000000F2";
    private static final String CREATED_AT = "2026-06-01T10:00:01.000Z";

    @Inject
    CapacityModels models;

    @Test
    void anAttemptThatFailsAfterItsCountLeavesTheTokenPendingForTheAttemptThatEnds() {
        ModelStore store = new ModelStore();
        ModelProjection projection = models.projection(store);
        store.drive(projection.apply(received(UserEvent.REGISTERED, Topics.USERS, 1, AUTHOR,
                new UserRegistered(AUTHOR, "Author", "author@example.org", null, "2026-06-01T10:00:00.000Z")))
                .subscribeAsCompletionStage());
        store.drive(projection.apply(received(PostEvent.CREATED, Topics.POSTS, 1, POST,
                new PostCreated(POST, AUTHOR, "Title", "Body", CREATED_AT))).subscribeAsCompletionStage());
        store.drive(projection.check());
        store.drive(projection.settle());
        Key profile = KeyPlan.USER_PROFILE.key(AUTHOR);
        Key summary = KeyPlan.USER_POST.key(AUTHOR, CREATED_AT, POST);
        assertEquals("1", store.item(profile).get(Attributes.POST_COUNT).n());

        // The deletion takes the post off the author's count, then deletes the summary, its count's marker: that
        // delete fails the attempt.
        ReceivedEvent deleted = received(PostEvent.DELETED, Topics.POSTS, 2, POST,
                new PostDeleted(POST, "2026-06-01T11:00:00.000Z"));
        store.failDeletes(summary);
        CompletableFuture<Void> failed = projection.apply(deleted).subscribeAsCompletionStage();
        while (!failed.isDone()) {
            assertTrue(store.round(), "the attempt waits for nothing but the store");
        }
        assertTrue(failed.isCompletedExceptionally(), "the summary's delete failed the attempt");
        store.drive(projection.check());
        store.drive(projection.settle());   // the batch's end, or another batch's, comes before the retry

        assertEquals("0", store.item(profile).get(Attributes.POST_COUNT).n(), "counted once");
        assertEquals(List.of(deleted.id()), store.item(profile).get(TableWriter.PENDING_COUNTS).ss(),
                "the failed attempt's token stays pending");
        assertFalse(store.item(summary).containsKey("uncountedFromPostCount"), "its marker stays unflagged");

        store.stopFailingDeletes();
        store.drive(projection.apply(deleted).subscribeAsCompletionStage());
        store.drive(projection.check());
        store.drive(projection.settle());
        assertEquals("0", store.item(profile).get(Attributes.POST_COUNT).n(), "the retry found the token pending");
        assertFalse(store.item(profile).containsKey(TableWriter.PENDING_COUNTS), "and released it");
        assertEquals(null, store.item(summary), "the summary is gone");
    }

    private static ReceivedEvent received(EventType<?> type, String topic, long offset, String key, DomainEvent data) {
        return new ReceivedEvent("01M8YF00000000000000000" + topic.length() + offset, type.name(), key, AUTHOR,
                Instant.parse("2026-06-01T10:00:00Z"), data, new LogPosition(topic, 0, offset));
    }
}
