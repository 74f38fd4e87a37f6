package dev.cabinet.post;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.allPages;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.awaitOk;
import static dev.cabinet.support.Api.comment;
import static dev.cabinet.support.Api.createPost;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.register;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.Topics;
import dev.cabinet.support.ForeignProducer;
import dev.cabinet.shared.Ids;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

@QuarkusTest
class CommentApiTest {

    @Test
    void commentsCarryTheirAuthorsNameAndAvatarAndAreCountedExactly() {
        String author = newUserId();
        String reader = newUserId();
        register(author, "Ann");
        as(reader).body(Map.of("name", "Rob", "email", reader + "@example.com", "avatarUrl", "https://img.example/rob.png"))
                .put("/users/" + reader).then().statusCode(202);
        awaitOk("/users/" + reader);
        String postId = createPost(author, "Hello");

        String commentId = as(reader).body(Map.of("text", "First!")).post("/posts/" + postId + "/comments")
                .then().statusCode(202)
                .body("type", equalTo("cabinet.comment.added.v1"))
                .body("position", notNullValue())
                .extract().path("id");
        comment(author, postId, "Thanks");

        awaitComments(postId, 2);
        given().get("/posts/" + postId + "/comments").then().statusCode(200)
                .body("items", hasSize(2))
                .body("items[0].id", equalTo(commentId))
                .body("items[0].postId", equalTo(postId))
                .body("items[0].authorId", equalTo(reader))
                .body("items[0].authorName", equalTo("Rob"))
                .body("items[0].authorAvatar", equalTo("https://img.example/rob.png"))
                .body("items[0].text", equalTo("First!"))
                .body("items[1].authorName", equalTo("Ann"));
    }

    @Test
    void aPostsCommentsArePagedToTheEndOldestOrNewestFirst() {
        String author = newUserId();
        register(author, "Pat");
        String postId = createPost(author, "Many comments");
        List<String> written = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            written.add(comment(author, postId, "Comment " + i));
        }
        awaitComments(postId, 7);

        assertEquals(written, allPages("/posts/" + postId + "/comments", 3, "id"));
        assertEquals(written, allPages("/posts/" + postId + "/comments?order=asc", 2, "id"));
        List<String> newestFirst = new ArrayList<>(written);
        Collections.reverse(newestFirst);
        assertEquals(newestFirst, allPages("/posts/" + postId + "/comments?order=desc", 3, "id"));
        given().get("/posts/" + postId + "/comments?order=sideways").then().statusCode(400)
                .contentType("application/problem+json").body("errors.field", hasItem("order"));
    }

    @Test
    void aPostWithItsNewestCommentsComesFromOneQueryAndItsCursorContinuesTheComments() {
        String author = newUserId();
        register(author, "Quinn");
        String postId = createPost(author, "Pattern three");
        List<String> written = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            written.add(comment(author, postId, "Reply " + i));
        }
        awaitComments(postId, 5);
        List<String> newestFirst = new ArrayList<>(written);
        Collections.reverse(newestFirst);

        JsonPath first = given().queryParam("include", "comments").queryParam("limit", 2).get("/posts/" + postId)
                .then().statusCode(200)
                .body("id", equalTo(postId))
                .body("title", equalTo("Pattern three"))
                .body("commentCount", equalTo(5))
                .extract().jsonPath();
        List<String> listed = new ArrayList<>(first.getList("comments.items.id"));
        assertEquals(newestFirst.subList(0, 2), listed);
        String cursor = first.getString("comments.next");
        while (cursor != null) {
            JsonPath page = given().queryParam("order", "desc").queryParam("limit", 2).queryParam("cursor", cursor)
                    .get("/posts/" + postId + "/comments").then().statusCode(200).extract().jsonPath();
            listed.addAll(page.getList("items.id"));
            cursor = page.getString("next");
        }
        assertEquals(newestFirst, listed);

        given().queryParam("include", "everything").get("/posts/" + postId).then().statusCode(400)
                .body("errors.field", hasItem("include"));
        given().queryParam("include", "comments").get("/posts/" + newUserId()).then().statusCode(404);
    }

    @Test
    void aUsersCommentsAcrossPostsAreListedNewestFirstFromTheAuthorIndex() {
        String author = newUserId();
        String commenter = newUserId();
        register(author, "Host");
        register(commenter, "Guest");
        String first = createPost(author, "One");
        String second = createPost(author, "Two");
        List<String> written = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            written.add(comment(commenter, first, "On one " + i));
            written.add(comment(commenter, second, "On two " + i));
        }
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> assertEquals(6,
                allPages("/users/" + commenter + "/comments", 100).size()));

        List<String> newestFirst = new ArrayList<>(written);
        Collections.reverse(newestFirst);
        assertEquals(newestFirst, allPages("/users/" + commenter + "/comments", 4, "id"));
        given().get("/users/" + commenter + "/comments").then().body("items[0].postId", equalTo(second))
                .body("items[0].authorName", equalTo("Guest"));
    }

    @Test
    void theCommentsAuthorOrThePostsAuthorMayDeleteItAndNobodyElse() {
        String author = newUserId();
        String commenter = newUserId();
        String stranger = newUserId();
        register(author, "Owner");
        register(commenter, "Talker");
        register(stranger, "Stranger");
        String postId = createPost(author, "Moderated");
        String byCommenter = comment(commenter, postId, "Mine");
        String another = comment(commenter, postId, "Also mine");
        awaitComments(postId, 2);

        as(stranger).delete("/posts/" + postId + "/comments/" + byCommenter).then().statusCode(403)
                .contentType("application/problem+json").body("detail", containsString(byCommenter));
        given().delete("/posts/" + postId + "/comments/" + byCommenter).then().statusCode(401);
        as(commenter).delete("/posts/" + postId + "/comments/" + byCommenter).then().statusCode(202)
                .body("type", equalTo("cabinet.comment.deleted.v1"));
        as(author).delete("/posts/" + postId + "/comments/" + another).then().statusCode(202);

        await().atMost(PROJECTION_WAIT).untilAsserted(() -> {
            given().get("/posts/" + postId).then().body("commentCount", equalTo(0));
            given().get("/posts/" + postId + "/comments").then().body("items", hasSize(0));
            given().get("/users/" + commenter + "/comments").then().body("items", hasSize(0));
        });
        as(author).delete("/posts/" + postId + "/comments/" + another).then().statusCode(404);
        as(author).delete("/posts/" + createPost(author, "Other") + "/comments/" + byCommenter).then().statusCode(404);
    }

    @Test
    void commentingNeedsARegisteredUserAnExistingPostAndText() {
        String author = newUserId();
        register(author, "Val");
        String postId = createPost(author, "Rules");

        as(newUserId()).body(Map.of("text", "Hi")).post("/posts/" + postId + "/comments").then().statusCode(409);
        as(author).body(Map.of("text", "Hi")).post("/posts/" + newUserId() + "/comments").then().statusCode(404)
                .contentType("application/problem+json");
        as(author).body(Map.of("text", "")).post("/posts/" + postId + "/comments").then().statusCode(400)
                .body("errors.field", hasItem("text"));
        as(author).body(Map.of("text", "x".repeat(2001))).post("/posts/" + postId + "/comments").then().statusCode(400);
        given().contentType("application/json").body(Map.of("text", "anonymous")).post("/posts/" + postId + "/comments")
                .then().statusCode(401);
    }

    /**
     * The API checks that the post exists, but the post can be deleted between that check and the projection (here,
     * as another service would, the comment event is written straight to the log after the deletion): the projector
     * rejects it and records why under its event id.
     */
    @Test
    void aCommentThatReachesTheProjectorAfterItsPostWasDeletedIsRejectedAndTheRejectionIsRecorded() throws Exception {
        String author = newUserId();
        register(author, "Late");
        String postId = createPost(author, "Short-lived");
        as(author).delete("/posts/" + postId).then().statusCode(202);
        await().atMost(PROJECTION_WAIT).until(() -> given().get("/posts/" + postId).statusCode() == 404);

        String eventId = Ids.newId();
        ForeignProducer.produce(Topics.POSTS, postId, eventId, "cabinet.comment.added.v1", "{\"postId\":\"" + postId
                + "\",\"commentId\":\"" + Ids.newId() + "\",\"authorId\":\"" + author
                + "\",\"text\":\"Too late\",\"createdAt\":\"2026-01-01T00:00:00.000Z\"}");

        awaitOk("/commands/" + eventId)
                .body("eventId", equalTo(eventId))
                .body("status", equalTo("rejected"))
                .body("type", equalTo("cabinet.comment.added.v1"))
                .body("reason", containsString("post " + postId + " does not exist"));
        given().get("/posts/" + postId + "/comments").then().body("items", hasSize(0));
        given().get("/users/" + author + "/comments").then().body("items", hasSize(0));
        given().get("/commands/" + Ids.newId()).then().statusCode(404).contentType("application/problem+json");
    }

    /** Waits until the post counts {@code count} comments and lists them all (the count is written first). */
    private static void awaitComments(String postId, int count) {
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> {
            given().get("/posts/" + postId).then().body("commentCount", equalTo(count));
            assertEquals(count, allPages("/posts/" + postId + "/comments", 100).size());
        });
    }
}
