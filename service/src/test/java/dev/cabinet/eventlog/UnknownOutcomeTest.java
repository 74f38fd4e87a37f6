package dev.cabinet.eventlog;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.allPages;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.awaitOk;
import static dev.cabinet.support.Api.createGroup;
import static dev.cabinet.support.Api.createPost;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.register;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import dev.cabinet.support.Freezer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

/**
 * A broker frozen across the producer's delivery timeout: commands answer 503 saying their outcome is unknown, with
 * the event id and the id of what they create; retries with the same Idempotency-Key reuse both; once the broker thaws,
 * each command has taken effect exactly once, however many of its records reached the log.
 */
@QuarkusTest
class UnknownOutcomeTest {

    /** One command: who sends it, with which key, and how. */
    private record Command(String caller, String key, Function<RequestSpecification, Response> send) {
    }

    /**
     * What one frozen-broker run leaves behind: the users, post and group it acted on, the first answers, and the
     * answers to comments sent without a key on another post ({@code unkeyedPostId}).
     */
    private record Run(String owner, String member, String postId, String groupId, Map<String, Response> first,
            String unkeyedPostId, List<Response> unkeyed) {
    }

    /** Comments without an Idempotency-Key sent into the frozen broker, a few milliseconds apart. */
    private static final int UNKEYED = 8;
    /** What {@code GET /commands/{eventId}} says of an event whose send the producer has not given up yet. */
    private static final String STILL_DELIVERING = "the producer is still delivering it";
    /** A thread for every request in flight at once (the common pool may have fewer: each waits for its 503). */
    private static final ExecutorService CALLERS = Executors.newCachedThreadPool();

    @Test
    void aRetryWithTheSameKeyAfterAnUnknownOutcomeTakesEffectOnceAndNeverAppendedMeansNotInTheLog() {
        Run run = freezeRetryAndThaw();
        String newPostId = run.first().get("post").path("id");
        awaitOk("/posts/" + newPostId);
        awaitOk("/orders/O" + run.owner());
        String commentId = run.first().get("comment").path("id");
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> {
            given().get("/posts/" + run.postId() + "/comments").then().statusCode(200)
                    .body("items", hasSize(1)).body("items[0].id", equalTo(commentId));
            given().get("/posts/" + run.postId()).then().body("commentCount", equalTo(1));
            given().get("/users/" + run.owner()).then().body("postCount", equalTo(2)).body("name", equalTo("Renamed"));
            given().get("/users/" + run.owner() + "/posts").then().body("items", hasSize(2));
            given().get("/groups/" + run.groupId()).then().body("memberCount", equalTo(2));
            given().get("/groups/" + run.groupId() + "/members").then().body("items", hasSize(2));
            given().get("/posts/" + run.postId()).then().body("authorName", equalTo("Renamed"));
            run.first().values().forEach(answer -> given().get("/commands/" + answer.path("eventId")).then()
                    .statusCode(200).body("status", equalTo("applied")));
        });
        assertNeverAppendedOnlyForWhatTheLogDoesNotHold(run);
    }

    /**
     * Comments without a key whose sends timed out in the frozen broker: each one ends either {@code applied} (the
     * broker wrote it after the thaw) or {@code never-appended}, never the latter while the log could still take it
     * (asserted in the frozen phase, past the delivery timeout), and exactly the applied ones are in the read model.
     */
    private static void assertNeverAppendedOnlyForWhatTheLogDoesNotHold(Run run) {
        Map<String, String> finalStatus = new LinkedHashMap<>();
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> {
            for (Response answer : run.unkeyed()) {
                String status = given().get("/commands/" + answer.path("eventId")).then().statusCode(200)
                        .extract().path("status");
                assertTrue(Set.of("applied", "never-appended").contains(status), status);
                finalStatus.put(answer.path("id"), status);
            }
        });
        Set<String> applied = finalStatus.entrySet().stream().filter(e -> e.getValue().equals("applied"))
                .map(Map.Entry::getKey).collect(Collectors.toSet());
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> {
            assertEquals(applied, Set.copyOf(allPages("/posts/" + run.unkeyedPostId() + "/comments", 100, "id")));
            given().get("/posts/" + run.unkeyedPostId()).then().body("commentCount", equalTo(applied.size()));
        });
        // The producer sends at most five requests at a time: the later sends into the frozen broker expired unsent.
        assertTrue(applied.size() < UNKEYED, "every unkeyed comment was appended: " + finalStatus);
    }

    /**
     * Comments, posts, joins and renames with an Idempotency-Key while the broker is frozen (503, outcome unknown), the
     * same again while still frozen (same event and resource ids), then once more after it thaws (202, same ids).
     */
    private static Run freezeRetryAndThaw() {
        String owner = newUserId();
        String member = newUserId();
        register(owner, "Owner");
        register(member, "Member");
        String postId = createPost(owner, "Frozen");
        String groupId = createGroup(owner, "Frozen group");
        String customerId = "C" + owner;
        String orderId = "O" + owner;   // the client's own id: reserved before the send, kept while its outcome is unknown
        as(owner).body(Map.of("name", "Frozen shop", "email", "shop@example.com")).put("/customers/" + customerId)
                .then().statusCode(202);
        awaitOk("/customers/" + customerId);
        String unkeyedPostId = createPost(member, "Unkeyed");   // not the owner's: their postCount is checked

        Map<String, Command> commands = new LinkedHashMap<>();
        commands.put("comment", new Command(member, "comment-" + postId, r -> r.body(Map.of("text", "once"))
                .post("/posts/" + postId + "/comments")));
        commands.put("post", new Command(owner, "post-" + postId, r -> r.body(Map.of("title", "Once", "body", "b"))
                .post("/posts")));
        commands.put("join", new Command(member, "join-" + groupId, r -> r.put("/groups/" + groupId + "/members/" + member)));
        commands.put("order", new Command(owner, "order-" + orderId, r -> r.body(Map.of("orderId", orderId,
                "total", "7.00")).post("/customers/" + customerId + "/orders")));
        commands.put("rename", new Command(owner, "rename-" + owner, r -> r.body(Map.of("name", "Renamed"))
                .patch("/users/" + owner)));

        Map<String, Response> first;
        Map<String, Response> retried;
        List<Response> unkeyed;
        try (Freezer broker = Freezer.broker()) {
            CompletableFuture<List<Response>> unkeyedSent = CompletableFuture.supplyAsync(
                    () -> sendUnkeyed(member, unkeyedPostId), CALLERS);
            first = sendAll(commands);
            unkeyed = unkeyedSent.join();
            unkeyed.forEach(answer -> answer.then().statusCode(503)
                    .body("type", equalTo("urn:cabinet:problem:outcome-unknown")));
            first.forEach((name, answer) -> answer.then().statusCode(503)
                    .contentType("application/problem+json")
                    .header("Retry-After", equalTo("5"))
                    .body("type", equalTo("urn:cabinet:problem:outcome-unknown"))
                    .body("outcome", equalTo("/commands/" + answer.path("eventId"))));
            assertNotNull(first.get("comment").path("id"), "a comment's id is known before the log answers");
            assertNotNull(first.get("post").path("id"));
            // Still frozen, past the producer's delivery timeout (6 s under test) for the first sends: same ids again.
            retried = sendAll(commands);
            first.forEach((name, answer) -> {
                retried.get(name).then().statusCode(503);
                assertEquals(answer.<String>path("eventId"), retried.get(name).path("eventId"), name);
                assertEquals(answer.<String>path("id"), retried.get(name).path("id"), name);
                given().get("/commands/" + answer.path("eventId")).then().statusCode(200)
                        .body("status", equalTo("pending"));
            });
            // Still frozen until the producer gave up every unkeyed send (its delivery timeout, 6 s under test): the
            // answers come by the request deadline (3 s under test), well before that.
            await().atMost(PROJECTION_WAIT).until(() -> unkeyed.stream().noneMatch(answer -> STILL_DELIVERING.equals(
                    given().get("/commands/" + answer.path("eventId")).path("reason"))));
            // Past their delivery timeout too, but the log cannot be read: not certain, so not never-appended.
            unkeyed.forEach(answer -> given().get("/commands/" + answer.path("eventId")).then().statusCode(200)
                    .body("status", equalTo("pending")));
        }
        // Thawed: the clients retry once more, as the answer told them to, and this time the log acknowledges. A
        // produce request already at the frozen broker is written when it thaws, and the projector may apply it before
        // this retry decides: then a join or a rename finds nothing left to do (200, nothing appended), where a
        // comment or a post, whose ids the key fixes, is appended again under the same event id (the projection
        // applies it once), and so is an order whose id the client chose (its reservation and the order found are its
        // own placement's). Either way the first event id must end applied, which the callers check.
        Map<String, Response> last = sendAll(commands);
        first.forEach((name, answer) -> {
            int status = last.get(name).statusCode();
            if (status == 200 && Set.of("join", "rename").contains(name)) {
                return;
            }
            last.get(name).then().statusCode(202);
            assertEquals(answer.<String>path("eventId"), last.get(name).path("eventId"), name);
            if (answer.path("id") != null) {
                assertEquals(answer.<String>path("id"), last.get(name).path("id"), name);
            }
        });

        return new Run(owner, member, postId, groupId, first, unkeyedPostId, unkeyed);
    }

    /** {@value #UNKEYED} comments without a key, each in a produce request of its own (sent 20 ms apart). */
    private static List<Response> sendUnkeyed(String caller, String postId) {
        List<CompletableFuture<Response>> sent = new ArrayList<>();
        for (int i = 0; i < UNKEYED; i++) {
            String text = "unkeyed " + i;
            sent.add(CompletableFuture.supplyAsync(() -> as(caller).body(Map.of("text", text))
                    .post("/posts/" + postId + "/comments"), CALLERS));
            // Apart, so that each send is a batch of its own: no condition to wait for, a pace.
            LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
        }
        return sent.stream().map(CompletableFuture::join).toList();
    }

    private static Map<String, Response> sendAll(Map<String, Command> commands) {
        Map<String, CompletableFuture<Response>> sent = new LinkedHashMap<>();
        commands.forEach((name, command) -> sent.put(name, CompletableFuture.supplyAsync(() -> command.send()
                .apply(as(command.caller()).header("Idempotency-Key", command.key())), CALLERS)));
        Map<String, Response> answers = new LinkedHashMap<>();
        sent.forEach((name, answer) -> answers.put(name, answer.join()));
        return answers;
    }
}
