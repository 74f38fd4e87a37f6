package dev.cabinet.http;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.createPost;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.register;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import dev.cabinet.support.FreezeAfter;
import dev.cabinet.support.Freezer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/**
 * The request deadline ({@code cabinet.http.deadline}, 3 s under test, below the store's 4 s call timeout so that
 * the answer is the deadline's own): a keyed command whose store freezes right after its Idempotency-Key reservation,
 * and a read sent into the same freeze, answer 503 store-unavailable with Retry-After, saying it was the deadline; the
 * command had sent nothing, so its retry with the same key once the store is back appends it, once.
 */
@QuarkusTest
class RequestDeadlineTest {

    private static final ExecutorService CALLERS = Executors.newCachedThreadPool();

    @Test
    void aCommandFrozenAfterItsReservationAndAReadAnswer503ByTheDeadlineAndTheRetryAppliesOnce() throws Exception {
        String user = newUserId();
        register(user, "Deadline");
        String postId = createPost(user, "Deadline");
        String key = "comment-" + postId;
        Map<String, String> comment = Map.of("text", "once");

        Response command;
        Response read;
        CompletableFuture<Freezer> frozen = FreezeAfter.call("UpdateItem", "IDEMPOTENCY#" + requestId(user, key));
        CompletableFuture<Response> sent = CompletableFuture.supplyAsync(() -> as(user).header("Idempotency-Key", key)
                .body(comment).post("/posts/" + postId + "/comments"), CALLERS);
        try (Freezer store = frozen.get()) {
            read = given().get("/posts/" + postId);
            command = sent.join();
        }
        for (Response answer : new Response[] { command, read }) {
            answer.then().statusCode(503)
                    .contentType("application/problem+json")
                    .header("Retry-After", equalTo("5"))
                    .body("type", equalTo("urn:cabinet:problem:store-unavailable"))
                    .body("detail", containsString("deadline (cabinet.http.deadline, 3000 ms)"));
        }

        // Nothing was sent: the retry with the same key appends the comment (once the first request's key is freed).
        String[] eventId = new String[1];
        await().atMost(PROJECTION_WAIT).until(() -> {
            Response retry = as(user).header("Idempotency-Key", key).body(comment)
                    .post("/posts/" + postId + "/comments");
            eventId[0] = retry.path("eventId");
            return retry.statusCode() != 409 && retry.statusCode() != 503;
        });
        as(user).header("Idempotency-Key", key).body(comment).post("/posts/" + postId + "/comments").then()
                .statusCode(202).header("Idempotent-Replayed", "true").body("eventId", equalTo(eventId[0]));
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> {
            given().get("/posts/" + postId + "/comments").then().statusCode(200).body("items", hasSize(1));
            given().get("/posts/" + postId).then().statusCode(200).body("commentCount", equalTo(1));
        });
        given().get("/commands/" + eventId[0]).then().statusCode(200).body("status", equalTo("applied"));
        assertEquals(1, (int) given().get("/posts/" + postId + "/comments").path("items.size()"));
    }

    /**
     * A command's If-Match read, without an Idempotency-Key, counts against the same deadline: sent into a frozen store,
     * it answers by the deadline, not by the store's own call timeout with the command's whole deadline still ahead.
     */
    @Test
    void anIfMatchReadIntoAFrozenStoreAnswersByTheDeadline() throws Exception {
        String user = newUserId();
        register(user, "Matched");
        String tag = as(user).get("/users/" + user).then().statusCode(200).extract().header("ETag");
        CompletableFuture<Freezer> frozen = FreezeAfter.call("GetItem", "USER#" + user);
        as(user).get("/users/" + user).then().statusCode(200);
        Response change;
        try (Freezer store = frozen.get(PROJECTION_WAIT.toSeconds(), TimeUnit.SECONDS)) {
            change = as(user).header("If-Match", tag).body(Map.of("name", "Rematched")).patch("/users/" + user);
        }
        change.then().statusCode(503).header("Retry-After", equalTo("5"))
                .body("type", equalTo("urn:cabinet:problem:store-unavailable"))
                .body("detail", containsString("deadline (cabinet.http.deadline, 3000 ms)"));
    }

    /** The id IdempotencyFilters reserves under: the caller and the key, hashed. */
    private static String requestId(String caller, String key) throws NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest((caller + "\n" + key + "\n").getBytes(StandardCharsets.UTF_8)));
    }
}
