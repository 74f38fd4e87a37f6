package dev.cabinet.projection.execution;

import static dev.cabinet.support.Api.allPages;
import static dev.cabinet.support.Api.applied;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.awaitOk;
import static dev.cabinet.support.Api.createGroup;
import static dev.cabinet.support.Api.createPost;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.register;
import static dev.cabinet.support.Api.waiting;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.cabinet.support.LostAnswer;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import io.quarkus.test.junit.QuarkusTest;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * A store call carried out whose answer is lost (an attempt that answered after api-call-attempt-timeout, a connection
 * reset on the way back) is sent again by the SDK, and the resent call meets its own first attempt: the write that
 * records an event on its stream finds the version guard failed by itself. The event must still take its whole effect.
 * Issue 44: a member-left was recorded on the group while the store was frozen for as long as the attempt timeout, and
 * its deletes and count were never made. Each test loses the answer of one event's recording write and checks every
 * item the event changes, over the API.
 */
@QuarkusTest
class LostAnswerTest {

    @AfterEach
    void disarm() {
        LostAnswer.disarm();
    }

    @Test
    void aLeaveWhoseRecordingAnswerIsLostStillEndsTheMembershipOnBothSidesAndTheCount() {
        String admin = newUserId();
        String member = newUserId();
        register(admin, "Admin");
        register(member, "Member");
        String groupId = createGroup(admin, "Leavers");
        applied(waiting(member).put("/groups/" + groupId + "/members/" + member));
        given().get("/groups/" + groupId).then().body("memberCount", equalTo(2));

        CompletableFuture<SdkRequest> lost = loseRecordingAnswer(KeyPlan.GROUP.key(groupId));
        applied(waiting(member).delete("/groups/" + groupId + "/members/" + member));
        assertTrue(lost.isDone(), "the leave's recording write lost its answer");

        given().get("/groups/" + groupId + "/members/" + member).then().statusCode(404);
        given().get("/users/" + member + "/groups").then().statusCode(200).body("items.size()", equalTo(0));
        given().get("/groups/" + groupId).then().body("memberCount", equalTo(1));
    }

    @Test
    void aPostWhoseCreationAnswerIsLostStillReachesItsAuthorsListAndCount() {
        String author = newUserId();
        register(author, "Writer");
        String postId = applied(waiting(author).body(Map.of("title", "Lost", "body", "Answer")).post("/posts"));
        // The first post only says the projector has seen the author; the second one's creation loses its answer.
        String secondId = newPostIdLosingTheCreationAnswer(author);

        assertEquals(List.of(secondId, postId), allPages("/users/" + author + "/posts", 10, "id"));
        given().get("/users/" + author).then().body("postCount", equalTo(2));
    }

    @Test
    void anUnlikeWhoseRecordingAnswerIsLostStillTakesTheLikeOffTheCount() {
        String author = newUserId();
        String fan = newUserId();
        register(author, "Author");
        register(fan, "Fan");
        String postId = createPost(author, "Liked once");
        applied(waiting(fan).put("/posts/" + postId + "/likes"));
        given().get("/posts/" + postId).then().body("likeCount", equalTo(1));

        CompletableFuture<SdkRequest> lost = loseRecordingAnswer(KeyPlan.LIKE.key(postId, fan));
        applied(waiting(fan).delete("/posts/" + postId + "/likes"));
        assertTrue(lost.isDone(), "the unlike's recording write lost its answer");

        given().get("/posts/" + postId).then().body("likeCount", equalTo(0));
        given().get("/users/" + fan + "/likes").then().body("items.size()", equalTo(0));
    }

    @Test
    void aCommentDeletionWhoseRecordingAnswerIsLostStillDeletesTheCommentAndCountsIt() {
        String author = newUserId();
        String reader = newUserId();
        register(author, "Author");
        register(reader, "Reader");
        String postId = createPost(author, "Commented");
        String commentId = applied(waiting(reader).body(Map.of("text", "Soon gone"))
                .post("/posts/" + postId + "/comments"));
        given().get("/posts/" + postId).then().body("commentCount", equalTo(1));

        CompletableFuture<SdkRequest> lost = loseRecordingAnswer(KeyPlan.POST.key(postId));
        applied(waiting(reader).delete("/posts/" + postId + "/comments/" + commentId));
        assertTrue(lost.isDone(), "the deletion's recording write lost its answer");

        given().get("/posts/" + postId + "/comments").then().body("items.size()", equalTo(0));
        given().get("/users/" + reader + "/comments").then().body("items.size()", equalTo(0));
        given().get("/posts/" + postId).then().body("commentCount", equalTo(0));
    }

    @Test
    void aFileDeletionWhoseRecordingAnswerIsLostStillTakesTheFileAndItsListing() {
        String owner = newUserId();
        register(owner, "Owner");
        String folderId = applied(waiting(owner).body(Map.of("name", "Lost answers")).post("/folders"));
        // A file's declaration answers with its upload, never held by Prefer: wait.
        String fileId = as(owner).body(Map.of("name", "a.txt", "size", 3, "contentType", "text/plain"))
                .post("/folders/" + folderId + "/files").then().statusCode(202).extract().path("id");
        awaitOk("/files/" + fileId);
        given().get("/folders/" + folderId + "/files").then().body("items.size()", equalTo(1));

        // A deletion is recorded on the file's tombstone.
        CompletableFuture<SdkRequest> lost = loseRecordingAnswer(KeyPlan.FILE_TOMBSTONE.key(fileId));
        applied(waiting(owner).delete("/files/" + fileId));
        assertTrue(lost.isDone(), "the deletion's recording write lost its answer");

        given().get("/files/" + fileId).then().statusCode(404);
        given().get("/folders/" + folderId + "/files").then().body("items.size()", equalTo(0));
    }

    @Test
    void aCommandWhoseIdempotencyReservationAnswerIsLostIsAcceptedOnceNotRefusedAsRunning() {
        String author = newUserId();
        register(author, "Careful");
        CompletableFuture<SdkRequest> lost = LostAnswer.of("UpdateItem", request -> request instanceof UpdateItemRequest
                update && update.key().get(Key.PK).s().startsWith("IDEMPOTENCY#"));
        Map<String, String> body = Map.of("title", "Reserved once", "body", "b");
        String postId = as(author).header("Idempotency-Key", "lost-reservation").body(body).post("/posts").then()
                .statusCode(202).extract().path("id");
        assertTrue(lost.isDone(), "the reservation lost its answer");
        as(author).header("Idempotency-Key", "lost-reservation").body(body).post("/posts").then().statusCode(202)
                .header("Idempotent-Replayed", "true").body("id", equalTo(postId));
    }

    /** Creates a post whose creating write (its root's first write) loses its answer; returns its id. */
    private static String newPostIdLosingTheCreationAnswer(String author) {
        // The post's id is made by the command, so the chosen write is the next root write of a post by this author.
        CompletableFuture<SdkRequest> lost = LostAnswer.of("UpdateItem", request -> request instanceof UpdateItemRequest
                update && update.key().get(Key.PK).s().startsWith("POST#")
                && "METADATA".equals(update.key().get(Key.SK).s())
                && update.expressionAttributeValues().values().stream()
                        .anyMatch(value -> author.equals(value.s())));
        String postId = applied(waiting(author).body(Map.of("title", "Second", "body", "Lost answer"))
                .post("/posts"));
        assertTrue(lost.isDone(), "the creation's recording write lost its answer");
        return postId;
    }

    /** Loses the answer of the next UpdateItem of {@code key}: the write that records the next event on it. */
    private static CompletableFuture<SdkRequest> loseRecordingAnswer(Key key) {
        return LostAnswer.of("UpdateItem", request -> request instanceof UpdateItemRequest update
                && key.toAttributes().equals(update.key()));
    }
}
