package dev.cabinet.eventlog;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
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

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

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

    /** What one frozen-broker run leaves behind: the users, post and group it acted on, and the first answers. */
    private record Run(String owner, String member, String postId, String groupId, Map<String, Response> first) {
    }

    @Test
    void aRetryWithTheSameKeyAfterAnUnknownOutcomeTakesEffectOnce() {
        Run run = freezeRetryAndThaw();
        String newPostId = run.first().get("post").path("id");
        awaitOk("/posts/" + newPostId);
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

        Map<String, Command> commands = new LinkedHashMap<>();
        commands.put("comment", new Command(member, "comment-" + postId, r -> r.body(Map.of("text", "once"))
                .post("/posts/" + postId + "/comments")));
        commands.put("post", new Command(owner, "post-" + postId, r -> r.body(Map.of("title", "Once", "body", "b"))
                .post("/posts")));
        commands.put("join", new Command(member, "join-" + groupId, r -> r.put("/groups/" + groupId + "/members/" + member)));
        commands.put("rename", new Command(owner, "rename-" + owner, r -> r.body(Map.of("name", "Renamed"))
                .patch("/users/" + owner)));

        Map<String, Response> first;
        Map<String, Response> retried;
        try (Freezer broker = Freezer.broker()) {
            first = sendAll(commands);
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
        }
        // Thawed: the clients retry once more, as the answer told them to, and this time the log acknowledges.
        Map<String, Response> last = sendAll(commands);
        first.forEach((name, answer) -> {
            last.get(name).then().statusCode(202);
            assertEquals(answer.<String>path("eventId"), last.get(name).path("eventId"), name);
            if (answer.path("id") != null) {
                assertEquals(answer.<String>path("id"), last.get(name).path("id"), name);
            }
        });

        return new Run(owner, member, postId, groupId, first);
    }

    private static Map<String, Response> sendAll(Map<String, Command> commands) {
        Map<String, CompletableFuture<Response>> sent = new LinkedHashMap<>();
        commands.forEach((name, command) -> sent.put(name, CompletableFuture.supplyAsync(() -> command.send()
                .apply(as(command.caller()).header("Idempotency-Key", command.key())))));
        Map<String, Response> answers = new LinkedHashMap<>();
        sent.forEach((name, answer) -> answers.put(name, answer.join()));
        return answers;
    }
}
