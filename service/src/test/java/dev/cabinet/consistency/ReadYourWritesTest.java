package dev.cabinet.consistency;

import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.awaitOk;
import static dev.cabinet.support.Api.createGroup;
import static dev.cabinet.support.Api.createPost;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.register;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.LogPosition;
import dev.cabinet.projection.failure.ParkedKeys;
import dev.cabinet.projection.ordering.ProjectionEngine;
import dev.cabinet.support.Freezer;
import dev.cabinet.support.PermissionDenial;
import dev.cabinet.table.ActiveTable;
import dev.cabinet.table.Attributes;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.reactive.messaging.kafka.KafkaClientService;
import io.smallrye.reactive.messaging.kafka.KafkaConsumer;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Read-your-writes without polling: a command sent with Prefer: wait answers once its event is applied, and a query
 * sent with the Consistency-Token of a command answers only from a projection that has reached it.
 */
@QuarkusTest
class ReadYourWritesTest {

    @Inject
    KafkaClientService kafka;

    @Inject
    DynamoDbAsyncClient dynamo;

    @Inject
    ActiveTable tables;

    @Inject
    ConsistencyConfig config;

    @Test
    void aCommandWithPreferWaitAnswersOnceApplied() {
        String user = newUserId();
        as(user).header("Prefer", "wait=10").body(Map.of("name", "Waiter", "email", user + "@example.com"))
                .put("/users/" + user).then().statusCode(200)
                .header("Preference-Applied", "wait=10")
                .body("outcome", equalTo("applied"))
                .body("type", equalTo("cabinet.user.registered.v1"));
        // No waiting: the profile is there.
        given().get("/users/" + user).then().statusCode(200).body("name", equalTo("Waiter"));

        String postId = as(user).header("Prefer", "return=minimal, wait=10")
                .body(Map.of("title", "Right away", "body", "b")).post("/posts").then().statusCode(200)
                .extract().path("id");
        given().get("/posts/" + postId).then().statusCode(200).body("title", equalTo("Right away"));

        // RFC 7240: the name in any case, the value quoted or not; a wait longer than the maximum is cut to it.
        String edited = as(user).header("Prefer", "Wait=\"9999999999\"").body(Map.of("title", "Waited long"))
                .patch("/posts/" + postId).then().statusCode(200)
                .header("Preference-Applied", "wait=" + config.maxPreferWait().toSeconds())
                .body("outcome", equalTo("applied")).extract().path("id");
        given().get("/posts/" + edited).then().body("title", equalTo("Waited long"));
        as(user).header("Prefer", "wait=0000000005").body(Map.of("title", "Waited five")).patch("/posts/" + postId)
                .then().statusCode(200).header("Preference-Applied", "wait=5");
    }

    /**
     * A wait whose reads of the projection's progress the store refuses keeps the command's 202 (its event is in the
     * log) and its Idempotency-Key: a 503 would say nothing was changed and free the key, and the client's retry would
     * then append the command a second time, with new ids.
     */
    @Test
    void aWaitTheStoreCannotAnswerKeepsTheAcceptedAnswerAndItsKey() throws Exception {
        String user = newUserId();
        register(user, "Patient");
        Map<String, String> body = Map.of("title", "Waited on", "body", "b");
        String first;
        try (AutoCloseable denial = PermissionDenial.deny("GetItem", "PROGRESS#")) {
            first = as(user).header("Prefer", "wait=2").header("Idempotency-Key", "wait-unanswered").body(body)
                    .post("/posts").then().statusCode(202)
                    .body("outcome", equalTo("pending"))
                    .body("detail", containsString("could not be read"))
                    .extract().path("id");
        }
        as(user).header("Prefer", "wait=2").header("Idempotency-Key", "wait-unanswered").body(body).post("/posts")
                .then().statusCode(202).header("Idempotent-Replayed", "true").body("id", equalTo(first));
        awaitOk("/posts/" + first);
    }

    @Test
    void aQueryWithTheConsistencyTokenNeverAnswersFromBeforeIt() {
        String user = newUserId();
        String token = registeredThenRenamedAfter(user);
        given().header("Consistency-Token", token).get("/users/" + user).then().statusCode(200)
                .body("name", equalTo("After"));

        String postId = createPost(user, "Commented");
        String commentToken = as(user).body(Map.of("text", "Seen at once")).post("/posts/" + postId + "/comments")
                .then().statusCode(202).extract().path("position");
        // A GSI-backed list (pattern 6) with the token of the comment.
        given().header("Consistency-Token", commentToken).get("/users/" + user + "/comments").then().statusCode(200)
                .body("items.text", hasItem("Seen at once"));
    }

    /**
     * A projector that stopped between marking a record's position parked and parking its key, and applied the record
     * when it came again, left the mark: the key does not confirm it, and the token's read answers.
     */
    @Test
    void aPositionMarkedParkedWhoseKeyIsNotParkedDoesNotHoldTheRead() {
        String user = newUserId();
        String token = registeredThenRenamedAfter(user);
        LogPosition position = LogPosition.parse(token);
        Map<String, AttributeValue> mark = new HashMap<>(ParkedKeys.positionKey(position.topic(), position.partition(),
                position.offset()).toAttributes());
        mark.put(Attributes.PARKED_KEY_ID, AttributeValue.fromS("never-parked"));
        dynamo.putItem(b -> b.tableName(tables.name()).item(mark)).join();

        given().header("Consistency-Token", token).get("/users/" + user).then().statusCode(200)
                .body("name", equalTo("After"));
    }

    /** Registers the user as "Before", renames them "After" and answers the rename's position. */
    private static String registeredThenRenamedAfter(String user) {
        register(user, "Before");
        return as(user).body(Map.of("name", "After")).patch("/users/" + user).then().statusCode(202)
                .extract().path("position");
    }

    /**
     * Issue 38, item 0: a token a command has just answered is used at once, 20 times on the same partition, so
     * that each one lies past the end the API last asked the broker for, a moment before. Never refused: each waits
     * for the projection and answers from it, on a base-table read (a profile) and an index read (GSI2: the user's
     * comments).
     */
    @Test
    void aTokenUsedTheMomentItsCommandAnsweredIsNeverRefused() {
        String user = newUserId();
        register(user, "Quick");
        String postId = createPost(user, "Quickly commented");
        for (int i = 0; i < 20; i++) {
            String name = "Quick " + i;
            String token = as(user).body(Map.of("name", name)).patch("/users/" + user).then().statusCode(202)
                    .extract().path("position");
            given().header("Consistency-Token", token).get("/users/" + user).then().statusCode(200)
                    .body("name", equalTo(name));
            String text = "Seen at once " + i;
            String commentToken = as(user).body(Map.of("text", text)).post("/posts/" + postId + "/comments").then()
                    .statusCode(202).extract().path("position");
            given().header("Consistency-Token", commentToken).get("/users/" + user + "/comments").then()
                    .statusCode(200).body("items.text", hasItem(text));
        }
    }

    @Test
    void aPositionThatIsNotReachedFailsFastAndABadTokenIsRefused() {
        String user = newUserId();
        List<KafkaConsumer<Object, Object>> projector = ProjectionEngine.consumers(kafka);
        projector.forEach(consumer -> consumer.pause().await().atMost(Duration.ofSeconds(10)));
        try {
            String token = as(user).body(Map.of("name", "Far", "email", user + "@example.com")).put("/users/" + user)
                    .then().statusCode(202).extract().path("position");
            given().header("Consistency-Token", token).get("/users/" + user).then().statusCode(503)
                    .contentType("application/problem+json")
                    .header("Retry-After", "1")
                    .body("type", equalTo("urn:cabinet:problem:not-yet-consistent"))
                    .body("detail", containsString(token));
        } finally {
            projector.forEach(consumer -> consumer.resume().await().atMost(Duration.ofSeconds(10)));
        }
        awaitOk("/users/" + user);
        String token = as(user).body(Map.of("name", "Near")).patch("/users/" + user).then().statusCode(202)
                .extract().path("position");
        given().header("Consistency-Token", token).get("/users/" + user).then().statusCode(200)
                .body("name", equalTo("Near"));
        String[] parts = token.split(":");
        String beyond = parts[0] + ":" + parts[1] + ":" + (Long.parseLong(parts[2]) + 1_000_000);
        given().header("Consistency-Token", beyond).get("/users/" + user).then().statusCode(400)
                .body("detail", containsString("holds no event"));
        given().header("Consistency-Token", "elsewhere:0:1").get("/users/" + user).then().statusCode(400)
                .body("errors.field", hasItem("Consistency-Token"));
        given().header("Consistency-Token", "cabinet.users:x:1").get("/users/" + user).then().statusCode(400);
    }

    /**
     * A token beyond what this instance knows is checked with the broker; a broker that does not answer is the event
     * log's unavailability (503 event-log-unavailable, Retry-After), not the store's: the request's deadline comes
     * before the admin client's own timeout.
     */
    @Test
    void aTokenTheBrokerCannotCheckIsTheEventLogsUnavailability() {
        String user = newUserId();
        register(user, "Checked");
        awaitOk("/users/" + user);
        String beyond = "cabinet.users:0:" + 1_000_000_000L;
        try (Freezer broker = Freezer.broker()) {
            given().header("Consistency-Token", beyond).get("/users/" + user).then().statusCode(503)
                    .body("type", equalTo("urn:cabinet:problem:event-log-unavailable"))
                    .header("Retry-After", notNullValue());
        }
    }

    @Test
    void aCommandTheProjectorRejectsAnswersWithTheReason() {
        String first = newUserId();
        String second = newUserId();
        register(first, "First admin");
        register(second, "Second admin");
        String groupId = createGroup(first, "Two admins");
        as(first).body(Map.of("role", "admin")).put("/groups/" + groupId + "/members/" + second).then().statusCode(202);
        awaitOk("/groups/" + groupId + "/members/" + second);
        String third = newUserId();
        register(third, "Member");
        as(third).header("Prefer", "wait=10").put("/groups/" + groupId + "/members/" + third).then().statusCode(200);

        // Both admins leave at once: the API lets both through (each sees two admins), the projector rejects the second.
        as(first).delete("/groups/" + groupId + "/members/" + first).then().statusCode(202);
        as(second).header("Prefer", "wait=10").delete("/groups/" + groupId + "/members/" + second).then()
                .statusCode(409)
                .contentType("application/problem+json")
                .body("detail", containsString("last admin"));
        given().get("/groups/" + groupId + "/members/" + second).then().statusCode(200)
                .body("role", equalTo("admin"));
        given().get("/groups/" + groupId + "/members/" + first).then().statusCode(404).body("role", nullValue());
    }
}
