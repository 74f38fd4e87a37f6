package dev.cabinet.projection.execution;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.applied;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.awaitOk;
import static dev.cabinet.support.Api.comment;
import static dev.cabinet.support.Api.createGroup;
import static dev.cabinet.support.Api.createPost;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.register;
import static dev.cabinet.support.Api.waiting;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.Topics;
import dev.cabinet.projection.ordering.DirectBatches;
import dev.cabinet.projection.ordering.ProjectionEngine;
import dev.cabinet.support.EventLogReader;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.TableWriter;
import io.quarkus.test.junit.QuarkusTest;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

@QuarkusTest
class RedeliveryTest {

    @Inject
    ProjectionEngine engine;

    @Inject
    TableWriter store;

    @Test
    void deliveringTheSameRecordsAgainLeavesEveryItemAndCounterUnchanged() {
        String author = newUserId();
        register(author, "Rita");
        String first = createPost(author, "First");
        String second = createPost(author, "Second");
        as(author).body(Map.of("title", "First, edited")).patch("/posts/" + first).then().statusCode(202);
        as(author).post("/posts/" + second + "/publish").then().statusCode(202);
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> {
            given().get("/users/" + author).then().body("postCount", equalTo(2));
            given().get("/posts/" + first).then().body("title", equalTo("First, edited"));
            given().get("/posts/" + second).then().body("status", equalTo("published"));
        });
        // The counts' tokens are released by the end of their batch, a moment after the count shows.
        await().atMost(PROJECTION_WAIT).until(() -> !store.read(KeyPlan.USER_PROFILE.key(author)).await()
                .indefinitely().orElseThrow().containsKey(TableWriter.PENDING_COUNTS));
        List<Key> keys = List.of(KeyPlan.USER_PROFILE.key(author), KeyPlan.POST.key(first), KeyPlan.POST.key(second),
                summaryKey(author, first), summaryKey(author, second));
        Map<Key, Map<String, AttributeValue>> before = snapshot(keys);

        List<ConsumerRecord<String, byte[]>> records = new ArrayList<>(EventLogReader.recordsWithKey(Topics.USERS, author));
        records.addAll(EventLogReader.recordsWithKey(Topics.POSTS, first));
        records.addAll(EventLogReader.recordsWithKey(Topics.POSTS, second));
        assertEquals(5, records.size());

        DirectBatches.project(engine, batchOf(records)).await().atMost(Duration.ofSeconds(30));
        // Equal at once: a batch ends only after the tokens its events released are removed again.
        assertEquals(before, snapshot(keys));

        // A consumer rewound to the start of one post's stream sees its first event again, alone.
        DirectBatches.project(engine, batchOf(records.subList(1, 2))).await().atMost(Duration.ofSeconds(30));
        assertEquals(before, snapshot(keys));
    }

    /**
     * Issue 44's shape, driven on purpose: an item deleted by a later event (a leave, an unlike, a comment's or a file's
     * or a post's deletion) stays deleted when the events before the deletion are delivered again, the whole stream (a
     * projector killed before its commit) or the creating event alone (a consumer rewound to it), and no count moves.
     */
    @Test
    void anItemDeletedByALaterEventStaysDeletedWhenTheEarlierEventsAreDeliveredAgain() {
        String owner = newUserId();
        String member = newUserId();
        register(owner, "Owner");
        register(member, "Member");

        String groupId = createGroup(owner, "Redelivered");
        applied(waiting(member).put("/groups/" + groupId + "/members/" + member));
        applied(waiting(member).delete("/groups/" + groupId + "/members/" + member));

        String postId = createPost(owner, "Liked and commented");
        applied(waiting(member).put("/posts/" + postId + "/likes"));
        applied(waiting(member).delete("/posts/" + postId + "/likes"));
        String commentId = applied(waiting(member).body(Map.of("text", "Gone soon")).post("/posts/" + postId + "/comments"));
        applied(waiting(member).delete("/posts/" + postId + "/comments/" + commentId));

        String doomedId = createPost(owner, "Deleted");
        comment(member, doomedId, "On a deleted post");
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().get("/posts/" + doomedId)
                .then().body("commentCount", equalTo(1)));
        applied(waiting(owner).delete("/posts/" + doomedId));

        String folderId = applied(waiting(owner).body(Map.of("name", "Redelivered files")).post("/folders"));
        String fileId = as(owner).body(Map.of("name", "a.txt", "size", 3, "contentType", "text/plain"))
                .post("/folders/" + folderId + "/files").then().statusCode(202).extract().path("id");
        awaitOk("/files/" + fileId);
        applied(waiting(owner).delete("/files/" + fileId));

        Runnable deletedStayDeleted = () -> {
            given().get("/groups/" + groupId + "/members/" + member).then().statusCode(404);
            given().get("/users/" + member + "/groups").then().body("items.size()", equalTo(0));
            given().get("/groups/" + groupId).then().body("memberCount", equalTo(1));
            given().get("/posts/" + postId).then().body("likeCount", equalTo(0)).body("commentCount", equalTo(0));
            given().get("/users/" + member + "/likes").then().body("items.size()", equalTo(0));
            given().get("/posts/" + postId + "/comments").then().body("items.size()", equalTo(0));
            given().get("/users/" + member + "/comments").then().body("items.size()", equalTo(0));
            given().get("/posts/" + doomedId).then().statusCode(404);
            given().get("/posts/" + doomedId + "/comments").then().body("items.size()", equalTo(0));
            given().get("/users/" + owner + "/posts").then().body("items.id", equalTo(List.of(postId)));
            given().get("/users/" + owner).then().body("postCount", equalTo(1));
            given().get("/files/" + fileId).then().statusCode(404);
            given().get("/folders/" + folderId + "/files").then().body("items.size()", equalTo(0));
        };
        deletedStayDeleted.run();

        List<List<ConsumerRecord<String, byte[]>>> streams = List.of(
                EventLogReader.recordsWithKey(Topics.GROUPS, groupId),
                EventLogReader.recordsWithKey(Topics.POSTS, member),     // likes are keyed by the user
                EventLogReader.recordsWithKey(Topics.POSTS, postId),
                EventLogReader.recordsWithKey(Topics.POSTS, doomedId),
                EventLogReader.recordsWithKey(Topics.FILES, fileId));
        for (List<ConsumerRecord<String, byte[]>> stream : streams) {
            assertTrue(stream.size() >= 2, "a creation and a deletion at least: " + stream.size());
            DirectBatches.project(engine, batchOf(stream)).await().atMost(Duration.ofSeconds(30));
            deletedStayDeleted.run();
            for (ConsumerRecord<String, byte[]> earlier : stream.subList(0, stream.size() - 1)) {
                DirectBatches.project(engine, batchOf(List.of(earlier))).await().atMost(Duration.ofSeconds(30));
                deletedStayDeleted.run();
            }
        }
    }

    private Key summaryKey(String author, String postId) {
        Map<String, AttributeValue> post = store.read(KeyPlan.POST.key(postId)).await().indefinitely().orElseThrow();
        return KeyPlan.USER_POST.key(author, post.get("createdAt").s(), postId);
    }

    private Map<Key, Map<String, AttributeValue>> snapshot(List<Key> keys) {
        Map<Key, Map<String, AttributeValue>> items = new LinkedHashMap<>();
        for (Key key : keys) {
            items.put(key, store.read(key).await().indefinitely().orElseThrow());
        }
        return items;
    }

    private static ConsumerRecords<String, byte[]> batchOf(List<ConsumerRecord<String, byte[]>> records) {
        Map<TopicPartition, List<ConsumerRecord<String, byte[]>>> byPartition = records.stream()
                .sorted(Comparator.comparingLong(ConsumerRecord::offset))
                .collect(Collectors.groupingBy(r -> new TopicPartition(r.topic(), r.partition()), LinkedHashMap::new,
                        Collectors.toList()));
        return new ConsumerRecords<>(byPartition, Map.of());
    }
}
