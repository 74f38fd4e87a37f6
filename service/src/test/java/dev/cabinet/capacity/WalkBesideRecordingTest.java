package dev.cabinet.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import dev.cabinet.post.CommentEvent;
import dev.cabinet.post.CommentEvent.CommentAdded;
import dev.cabinet.post.PostEvent;
import dev.cabinet.post.PostEvent.PostCreated;
import dev.cabinet.projection.ordering.ProjectionConfig;
import dev.cabinet.projection.contract.ReceivedEvent;
import dev.cabinet.projection.execution.ModelProjection;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.user.UserEvent;
import dev.cabinet.user.UserEvent.UserProfileUpdated;
import dev.cabinet.user.UserEvent.UserRegistered;
import io.quarkus.test.junit.QuarkusTest;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;

/**
 * A rename's walks over the profile's copies begin beside its recording write, a round sooner than from the profile as
 * recorded (PlanExecutor#walksFromRoot). A comment written after the walk's first page was read, whose own copy check
 * read the profile before the recording landed, is reached by neither: the walk made again when the batch ends
 * refreshes it.
 */
@QuarkusTest
class WalkBesideRecordingTest {

    private static final String AUTHOR = "u01M8Y0000000000000000000A2";
    private static final String POST = "01M8Y0000000000000000000P2";
    private static final CommentAdded COMMENT = new CommentAdded(POST, "01M8Y0000000000000000000C3", AUTHOR, "Text",
            "2026-06-01T10:00:02.000Z");

    @Inject
    CapacityModels models;

    @Inject
    ProjectionConfig config;

    @Test
    void aHolderWrittenWhileTheWalkBeganIsRefreshedWhenTheBatchEnds() {
        ModelStore store = new ModelStore();
        ModelProjection projection = authorWithPost(store, 0);
        Map<String, AttributeValue> written = racingComment(store, COMMENT);

        store.clearCalls();
        CompletableFuture<Void> rename = renamed(projection);
        assertTrue(store.round(), "the profile's read");
        assertTrue(store.round(), "the recording write, with the walks' first pages");
        List<String> second = store.calls().stream().filter(call -> call.round() == 2).map(ModelStore.Call::operation)
                .toList();
        assertTrue(second.contains("UpdateItem") && second.contains("Query"), "round two made " + second);
        assertEquals("After", store.item(KeyPlan.USER_PROFILE.key(AUTHOR)).get(Attributes.NAME).s());

        store.drive(store.putItem(PutItemRequest.builder().tableName("model").item(written).build()));
        store.drive(rename);
        assertEquals("Before", authorName(store, COMMENT), "the walk on the event's path began before the comment");

        store.drive(projection.check());
        assertEquals("After", authorName(store, COMMENT), "the walk made again when the batch ended reached it");
    }

    /**
     * The walk made again covers its first page's range only (later pages were read after the recording landed) and
     * writes none of the holders that page found: with a page and one more comment, it writes the racing comment alone.
     */
    @Test
    void theWalkMadeAgainWritesOnlyWhatItsFirstPageCouldNotHaveFound() {
        ModelStore store = new ModelStore();
        int comments = config.fanOutPageSize() + 1;
        ModelProjection projection = authorWithPost(store, comments);
        CommentAdded early = new CommentAdded(POST, "01M8Y0000000000000000000C4", AUTHOR, "Text",
                "2026-06-01T09:00:00.000Z");
        Map<String, AttributeValue> written = racingComment(store, early);

        CompletableFuture<Void> rename = renamed(projection);
        store.round();
        store.round();
        store.drive(store.putItem(PutItemRequest.builder().tableName("model").item(written).build()));
        store.drive(rename);
        assertEquals("Before", authorName(store, early));
        int before = store.calls().size();

        store.drive(projection.check());
        List<ModelStore.Call> atTheEnd = store.calls().subList(before, store.calls().size());
        assertEquals("After", authorName(store, early));
        assertEquals(1, atTheEnd.stream().filter(call -> call.operation().equals("UpdateItem")).count(),
                "writes when the batch ended: " + atTheEnd);
    }

    /** The author, their post and that many comments on it, all applied and checked. */
    private ModelProjection authorWithPost(ModelStore store, int comments) {
        ModelProjection projection = models.projection(store);
        store.drive(projection.apply(received(UserEvent.REGISTERED, Topics.USERS, 1, AUTHOR,
                new UserRegistered(AUTHOR, "Before", "before@example.org", null, "2026-06-01T10:00:00.000Z")))
                .subscribeAsCompletionStage());
        store.drive(projection.apply(received(PostEvent.CREATED, Topics.POSTS, 1, POST,
                new PostCreated(POST, AUTHOR, "Title", "Body", "2026-06-01T10:00:01.000Z")))
                .subscribeAsCompletionStage());
        for (int i = 0; i < comments; i++) {
            store.drive(projection.apply(received(CommentEvent.ADDED, Topics.POSTS, 2 + i, POST,
                    new CommentAdded(POST, String.format("01M8Y00000000000000000D%03d", i), AUTHOR, "Text",
                            String.format("2026-06-01T10:%02d:%02d.000Z", 1 + i / 60, i % 60))))
                    .subscribeAsCompletionStage());
        }
        store.drive(projection.check());
        store.drive(projection.settle());
        store.clearCalls();
        return projection;
    }

    /** The comment as its event writes it while the profile still says "Before", its check finding nothing newer. */
    private Map<String, AttributeValue> racingComment(ModelStore store, CommentAdded comment) {
        ModelStore elsewhere = new ModelStore(store.items());
        ModelProjection other = models.projection(elsewhere);
        elsewhere.drive(other.apply(received(CommentEvent.ADDED, Topics.POSTS, 1_000, POST, comment))
                .subscribeAsCompletionStage());
        elsewhere.drive(other.check());
        return elsewhere.item(KeyPlan.COMMENT.key(POST, comment.createdAt(), comment.commentId()));
    }

    private CompletableFuture<Void> renamed(ModelProjection projection) {
        return projection.apply(received(UserEvent.PROFILE_UPDATED, Topics.USERS, 2, AUTHOR,
                new UserProfileUpdated(AUTHOR, "After", null, null))).subscribeAsCompletionStage();
    }

    private static String authorName(ModelStore store, CommentAdded comment) {
        return store.item(KeyPlan.COMMENT.key(POST, comment.createdAt(), comment.commentId()))
                .get(Attributes.AUTHOR_NAME).s();
    }

    private static ReceivedEvent received(EventType<?> type, String topic, long offset, String key, DomainEvent data) {
        return new ReceivedEvent("01M8YW00000000000000000" + topic.length() + offset, type.name(), key, AUTHOR,
                Instant.parse("2026-06-01T10:00:00Z"), data, new LogPosition(topic, 0, offset));
    }
}
