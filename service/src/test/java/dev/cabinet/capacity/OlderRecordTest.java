package dev.cabinet.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
import dev.cabinet.projection.WritePlan.Write;
import dev.cabinet.projection.contract.ReceivedEvent;
import dev.cabinet.projection.execution.ModelProjection;
import dev.cabinet.projection.execution.StepCodec;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.user.UserEvent;
import dev.cabinet.user.UserEvent.UserRegistered;
import io.quarkus.test.junit.QuarkusTest;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;

/**
 * Steps an older release recorded with a person's data in clear (before it was withheld) are recorded again without it
 * once their event is redone: nothing else would remove them from a quiet post.
 */
@QuarkusTest
class OlderRecordTest {

    private static final String AUTHOR = "u01M8Y0000000000000000000A2";
    private static final String POST = "01M8Y0000000000000000000P2";
    private static final CommentAdded COMMENT = new CommentAdded(POST, "01M8Y0000000000000000000C3", AUTHOR,
            "Secret words", "2026-06-01T10:00:02.000Z");

    @Inject
    CapacityModels models;

    private final ModelStore store = new ModelStore();

    @Test
    void stepsRecordedWithAPersonsDataInClearAreRecordedAgainWithoutItWhenRedone() {
        ModelProjection projection = models.projection(store);
        apply(projection, UserEvent.REGISTERED, Topics.USERS, 1,
                new UserRegistered(AUTHOR, "Ann", "ann@example.org", null, "2026-06-01T10:00:00.000Z"));
        apply(projection, PostEvent.CREATED, Topics.POSTS, 1,
                new PostCreated(POST, AUTHOR, "Title", "Body", "2026-06-01T10:00:01.000Z"));
        apply(projection, CommentEvent.ADDED, Topics.POSTS, 2, COMMENT);
        Key post = KeyPlan.POST.key(POST);
        Key comment = KeyPlan.COMMENT.key(POST, COMMENT.createdAt(), COMMENT.commentId());
        // As an older release recorded the comment's write: a list of steps, the text and name in clear.
        ItemUpdate inClear = ItemUpdate.of(comment).set(Attributes.TEXT, COMMENT.text())
                .set(Attributes.AUTHOR_NAME, "Ann").set(Attributes.PROFILE_VERSION, 1);
        Map<String, AttributeValue> root = new HashMap<>(store.item(post));
        root.put(Attributes.PENDING_STEPS, AttributeValue.fromL(List.of(AttributeValue.fromM(Map.of(
                "op", AttributeValue.fromS("Write"), "update", inClear.encode())))));
        store.drive(store.putItem(PutItemRequest.builder().tableName("model").item(root).build())
                .thenApply(response -> null));

        apply(models.projection(store), CommentEvent.ADDED, Topics.POSTS, 2, COMMENT);   // redelivered: redone

        AttributeValue recorded = store.item(post).get(Attributes.PENDING_STEPS);
        assertFalse(ModelProjection.json(recorded).toString().contains("Secret"), ModelProjection.json(recorded)
                .toString());
        ItemUpdate step = ((Write) StepCodec.decode(recorded).get(0)).update();
        assertEquals(Set.of(Attributes.TEXT, Attributes.AUTHOR_NAME), Set.copyOf(step.withheld().values()));
        assertEquals("Secret words", store.item(comment).get(Attributes.TEXT).s(), "the comment itself keeps it");
    }

    private void apply(ModelProjection projection, EventType<?> type, String topic, long offset, DomainEvent data) {
        store.drive(projection.apply(new ReceivedEvent("01M8YF00000000000000000" + topic.length() + offset,
                type.name(), data instanceof UserRegistered ? AUTHOR : POST, AUTHOR,
                Instant.parse("2026-06-01T10:00:00Z"), data, new LogPosition(topic, 0, offset)))
                .subscribeAsCompletionStage());
    }
}
