package dev.cabinet.idempotency;

import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.register;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.Topics;
import dev.cabinet.support.EventLogReader;
import dev.cabinet.table.IdempotentRequests;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/** A command retried with the same Idempotency-Key runs once and answers the same. */
@QuarkusTest
class IdempotencyKeyTest {

    @Inject
    IdempotentRequests requests;

    /**
     * The same request again while the first still runs (here: its reservation, as a request in flight holds it) is
     * told to come back, by a type of its own: not a conflict of the command with the state.
     */
    @Test
    void theSameRequestWhileTheFirstRunsIsToldToComeBackShortly() throws Exception {
        String user = newUserId();
        register(user, "Busy");
        String key = "busy-1";
        String body = "{\"title\":\"Busy\",\"body\":\"in flight\"}";
        requests.reserve(sha256(user + "\n" + key + "\n"), sha256("POST /posts\n" + body), Duration.ofSeconds(40))
                .await().atMost(Duration.ofSeconds(10)).reserved().orElseThrow();
        as(user).header("Idempotency-Key", key).body(body).post("/posts").then().statusCode(409)
                .contentType("application/problem+json").header("Retry-After", "1")
                .body("type", equalTo("urn:cabinet:problem:idempotency-key-in-use"))
                .body("detail", containsString("still running"));
    }

    /** How IdempotencyFilters hashes a key's caller and a request's fingerprint. */
    private static String sha256(String text) throws NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(text.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void aRetryWithTheSameKeyAndBodyGetsTheSameAnswerAndWritesNoSecondEvent() {
        String user = newUserId();
        register(user, "Retrier");
        Map<String, String> body = Map.of("title", "Once", "body", "only once");
        JsonPath first = as(user).header("Idempotency-Key", "create-once-1").body(body).post("/posts").then()
                .statusCode(202).extract().jsonPath();
        JsonPath retry = as(user).header("Idempotency-Key", "create-once-1").body(body).post("/posts").then()
                .statusCode(202).header("Idempotent-Replayed", "true")
                .header("Location", endsWith("/posts/" + first.getString("id")))
                .extract().jsonPath();
        assertEquals(first.getString("eventId"), retry.getString("eventId"));
        assertEquals(first.getString("position"), retry.getString("position"));
        assertEquals(1, EventLogReader.recordsWithKey(Topics.POSTS, first.getString("id")).size());

        as(user).header("Idempotency-Key", "create-once-1").body(Map.of("title", "Other", "body", "b")).post("/posts")
                .then().statusCode(422).contentType("application/problem+json")
                .body("type", equalTo("urn:cabinet:problem:idempotency-key-reused"));
        // The key is the caller's: another user may use the same one.
        String other = newUserId();
        register(other, "Other");
        as(other).header("Idempotency-Key", "create-once-1").body(body).post("/posts").then().statusCode(202)
                .header("Idempotent-Replayed", (String) null);
    }

    @Test
    void aRefusedRequestFreesItsKeyAndBadKeysAreRefused() {
        String user = newUserId();
        register(user, "Corrector");
        as(user).header("Idempotency-Key", "fix-me").body(Map.of("title", "")).post("/posts").then().statusCode(400);
        as(user).header("Idempotency-Key", "fix-me").body(Map.of("title", "Fixed", "body", "b")).post("/posts").then()
                .statusCode(202).header("Idempotent-Replayed", (String) null);
        as(user).header("Idempotency-Key", "x".repeat(256)).body(Map.of("title", "T", "body", "b")).post("/posts")
                .then().statusCode(400).body("errors.field", hasItem("Idempotency-Key"));
        given().header("Idempotency-Key", "anonymous").contentType("application/json")
                .body(Map.of("title", "T", "body", "b")).post("/posts").then().statusCode(401);
    }
    /**
     * A retry of a conditional command that went through gets its answer again, not a 412 about the change it made
     * itself: the key is looked up before the command's If-Match.
     */
    @Test
    void aRetryOfAConditionalCommandThatWentThroughIsReplayedNotRefused() {
        String user = newUserId();
        register(user, "Before");
        String tag = given().get("/users/" + user).then().statusCode(200).extract().header("ETag");
        Map<String, String> body = Map.of("name", "After");
        int events = EventLogReader.recordsWithKey(Topics.USERS, user).size();
        String first = as(user).header("Idempotency-Key", "rename-once").header("If-Match", tag)
                .header("Prefer", "wait=5").body(body).patch("/users/" + user).then().statusCode(200)
                .extract().path("eventId");

        as(user).header("Idempotency-Key", "rename-once").header("If-Match", tag).body(body).patch("/users/" + user)
                .then().statusCode(200).header("Idempotent-Replayed", "true").body("eventId", equalTo(first));
        assertEquals(events + 1, EventLogReader.recordsWithKey(Topics.USERS, user).size(), "one event for the change");
    }

    /**
     * With Prefer: wait, the answer stored under the key is the one the wait ended with: a retry gets it again, headers
     * included.
     */
    @Test
    void aRetryGetsTheAnswerTheWaitEndedWith() {
        String user = newUserId();
        register(user, "Waiter");
        Map<String, String> body = Map.of("title", "Waited for", "body", "b");
        JsonPath first = as(user).header("Idempotency-Key", "wait-once").header("Prefer", "wait=5").body(body)
                .post("/posts").then().statusCode(200).body("outcome", equalTo("applied")).extract().jsonPath();

        as(user).header("Idempotency-Key", "wait-once").body(body).post("/posts").then().statusCode(200)
                .header("Idempotent-Replayed", "true").header("Preference-Applied", "wait=5")
                .header("Location", endsWith("/posts/" + first.getString("id"))).body("outcome", equalTo("applied"))
                .body("eventId", equalTo(first.getString("eventId")));
    }
}
