package dev.cabinet.projection;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.awaitOk;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.register;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.Topics;
import dev.cabinet.support.ForeignProducer;
import dev.cabinet.table.Ids;
import io.quarkus.test.junit.QuarkusTest;

/** Records written by another producer than Cabinet's API, with a plain Kafka producer. */
@QuarkusTest
class ForeignRecordsTest {

    @Test
    void aWellFormedEventFromAnotherProducerIsProjected() throws Exception {
        String id = newUserId();
        produce(id, "cabinet.user.registered.v1", "{\"userId\":\"" + id + "\",\"name\":\"Ext\",\"email\":\"ext@example.com\","
                + "\"registeredAt\":\"2026-01-01T00:00:00.000Z\"}");
        awaitOk("/users/" + id).body("name", equalTo("Ext")).body("registeredAt", equalTo("2026-01-01T00:00:00.000Z"));
    }

    @Test
    void unknownTypesAndUnreadableEventsAreCountedAndSkippedWhileTheirKeyKeepsFlowing() throws Exception {
        double unknownBefore = skipped("unknown-type");
        double undecodableBefore = skipped("undecodable");
        String id = newUserId();
        produce(id, "cabinet.user.teleported.v1", "{\"userId\":\"" + id + "\"}");
        produce(id, "cabinet.user.registered.v1", "{not json");
        produce(id, "cabinet.user.registered.v1", "{\"userId\":\"" + id + "\"}");
        produce(id, "cabinet.user.registered.v1", "{\"userId\":\"" + id + "\",\"name\":\"After\",\"email\":\"a@example.com\","
                + "\"registeredAt\":\"2026-01-01T00:00:00.000Z\"}");

        awaitOk("/users/" + id).body("name", equalTo("After"));
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> {
            assertTrue(skipped("unknown-type") >= unknownBefore + 1);
            assertTrue(skipped("undecodable") >= undecodableBefore + 2);
        });
    }

    @Test
    void eventsBeyondTheCommandsBoundsAreSkippedAsUnreadableAndTheKeyKeepsFlowing() throws Exception {
        double undecodableBefore = skipped("undecodable");
        String author = newUserId();
        register(author, "Bounds");
        String postId = "p" + Ids.newId();
        produce(Topics.POSTS, postId, "cabinet.post.created.v1", postCreated(postId, author, "x".repeat(20_001),
                "2026-01-01T00:00:00.000Z"));
        produce(Topics.POSTS, postId, "cabinet.post.created.v1", postCreated(postId, author, "body", "2026-01-01"));
        produce(Topics.POSTS, postId, "cabinet.post.created.v1", postCreated(postId, author, "body",
                "2026-01-01T00:00:00.000Z"));

        awaitOk("/posts/" + postId).body("body", equalTo("body"));
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> assertTrue(skipped("undecodable") >= undecodableBefore + 2));
    }

    private static String postCreated(String postId, String authorId, String body, String createdAt) {
        return "{\"postId\":\"" + postId + "\",\"authorId\":\"" + authorId + "\",\"title\":\"T\",\"body\":\"" + body
                + "\",\"createdAt\":\"" + createdAt + "\"}";
    }

    private static void produce(String key, String type, String json) throws Exception {
        produce(Topics.USERS, key, type, json);
    }

    private static void produce(String topic, String key, String type, String json) throws Exception {
        ForeignProducer.produce(topic, key, "ext-" + System.nanoTime(), type, json);
    }

    /** The skip counter as Prometheus shows it on /q/metrics. */
    private static double skipped(String reason) {
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        return metrics.lines()
                .filter(l -> l.startsWith("cabinet_projection_skipped_total") && l.contains("reason=\"" + reason + "\""))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .sum();
    }
}
