package dev.cabinet.projection.execution;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.comment;
import static dev.cabinet.support.Api.createPost;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.register;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.Topics;
import dev.cabinet.support.EventLogReader;
import dev.cabinet.support.ForeignProducer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/**
 * A command retried with the same event id can reach the log twice, the second record at a higher offset, where the
 * stream's version guard alone would take it for a new event (issue 20). The executor knows the root's recent event
 * ids: the second record of a post's creation is not rejected as "already exists", and the second record of a comment
 * neither counts it again nor writes it twice.
 */
@QuarkusTest
class DuplicateRecordTest {

    @Test
    void aSecondRecordOfAnAppliedEventChangesNothingAndIsNotRejected() throws Exception {
        String author = newUserId();
        register(author, "Twice");
        String postId = createPost(author, "Sent twice");
        comment(author, postId, "Counted once");
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().get("/posts/" + postId).then()
                .body("commentCount", equalTo(1)));

        List<ConsumerRecord<String, byte[]>> records = EventLogReader.recordsWithKey(Topics.POSTS, postId);
        assertEquals(2, records.size(), "the post's creation and its comment");
        for (ConsumerRecord<String, byte[]> record : records) {
            ForeignProducer.produce(Topics.POSTS, postId, EventLogReader.header(record, "ce_id"),
                    EventLogReader.header(record, "ce_type"), new String(record.value(), StandardCharsets.UTF_8));
        }
        // Applied after the duplicates: the key's events are applied in log order.
        String later = comment(author, postId, "Counted too");

        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().get("/posts/" + postId + "/comments").then()
                .body("items.id", hasItem(later)));
        given().get("/posts/" + postId).then().body("commentCount", equalTo(2));
        given().get("/posts/" + postId + "/comments").then().body("items", hasSize(2));
        given().get("/users/" + author).then().body("postCount", equalTo(1));
        for (ConsumerRecord<String, byte[]> record : records) {
            Response outcome = given().get("/commands/" + EventLogReader.header(record, "ce_id"));
            if (outcome.statusCode() == 200) {
                assertNotEquals("rejected", outcome.path("status"), outcome.asString());
            } else {
                assertEquals(404, outcome.statusCode(), outcome.asString());
            }
        }
    }
}
