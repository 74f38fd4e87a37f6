package dev.cabinet.post;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.allPages;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.comment;
import static dev.cabinet.support.Api.createPost;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.publish;
import static dev.cabinet.support.Api.register;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

/** DELETE /posts/{id}: the post's whole item collection, its summary and its feed entry go; postCount follows. */
@QuarkusTest
class PostDeletionTest {

    @Test
    void deletingAPostRemovesItsMetadataEveryCommentTheSummaryAndTheFeedEntry() {
        String author = newUserId();
        String commenter = newUserId();
        register(author, "Del");
        register(commenter, "Chatty");
        String kept = createPost(author, "Kept");
        String postId = createPost(author, "Doomed");
        publish(author, postId);
        // More comments than one BatchWriteItem (25) and than one page of the projector's walk.
        IntStream.range(0, 60).parallel().forEach(i -> comment(commenter, postId, "Comment " + i));
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().get("/posts/" + postId).then()
                .body("commentCount", equalTo(60)));
        given().get("/users/" + author).then().body("postCount", equalTo(2));

        as(commenter).delete("/posts/" + postId).then().statusCode(403).contentType("application/problem+json");
        as(author).delete("/posts/" + postId).then().statusCode(202).body("type", equalTo("cabinet.post.deleted.v1"));

        await().atMost(PROJECTION_WAIT).untilAsserted(() -> {
            given().get("/posts/" + postId).then().statusCode(404);
            given().get("/users/" + author).then().body("postCount", equalTo(1));
        });
        given().queryParam("include", "comments").get("/posts/" + postId).then().statusCode(404);
        given().get("/posts/" + postId + "/comments").then().statusCode(200).body("items", hasSize(0));
        given().get("/users/" + commenter + "/comments").then().body("items", hasSize(0));
        assertEquals(List.of(kept), allPages("/users/" + author + "/posts", 10, "id"));
        assertFalse(allPages("/posts?status=published", 100, "id").contains(postId));
        as(author).delete("/posts/" + postId).then().statusCode(404);
    }
}
