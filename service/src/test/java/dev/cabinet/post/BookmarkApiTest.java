package dev.cabinet.post;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.applied;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.createPost;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.register;
import static dev.cabinet.support.Api.waiting;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.cabinet.shared.Ids;
import io.quarkus.test.junit.QuarkusTest;

/** Bookmarks end to end: a user saves posts, reads them newest first (they only), removes one, and a deleted post's go. */
@QuarkusTest
class BookmarkApiTest {

    @Test
    void aUserSavesPostsSeesThemNewestFirstRemovesOneAndADeletedPostLeavesThem() {
        String author = newUserId();
        String ann = newUserId();
        register(author, "Author");
        register(ann, "Ann");
        String first = createPost(author, "Worth keeping");
        String second = createPost(author, "Also worth keeping");

        applied(waiting(ann).put("/posts/" + first + "/bookmarks"));
        applied(waiting(ann).put("/posts/" + second + "/bookmarks"));
        applied(waiting(ann).put("/posts/" + first + "/bookmarks"));   // saved again: appended, nothing changes
        as(ann).get("/users/" + ann + "/bookmarks").then().statusCode(200)
                .body("items.postId", equalTo(List.of(second, first)));   // newest first
        as(ann).queryParam("limit", 1).get("/users/" + ann + "/bookmarks").then().statusCode(200)
                .body("items.postId", equalTo(List.of(second)));

        // Private: another user, or nobody, may not read them.
        as(author).get("/users/" + ann + "/bookmarks").then().statusCode(403)
                .body("type", equalTo("urn:cabinet:problem:forbidden"));
        given().get("/users/" + ann + "/bookmarks").then().statusCode(401);
        as(newUserId()).put("/posts/" + first + "/bookmarks").then().statusCode(409);   // not registered
        as(ann).put("/posts/" + Ids.newId() + "/bookmarks").then().statusCode(404);

        applied(waiting(ann).delete("/posts/" + first + "/bookmarks"));
        applied(waiting(ann).delete("/posts/" + first + "/bookmarks"));   // removed again: nothing changes
        as(ann).get("/users/" + ann + "/bookmarks").then().body("items.postId", equalTo(List.of(second)));
        // Saved and removed back to back: the removal is appended although its read does not see the save yet.
        as(ann).put("/posts/" + first + "/bookmarks").then().statusCode(202);
        applied(waiting(ann).delete("/posts/" + first + "/bookmarks"));
        as(ann).get("/users/" + ann + "/bookmarks").then().body("items.postId", equalTo(List.of(second)));
        applied(waiting(ann).put("/posts/" + first + "/bookmarks"));   // saved again: newest again
        as(ann).get("/users/" + ann + "/bookmarks").then().body("items.postId", equalTo(List.of(first, second)));

        as(author).delete("/posts/" + second).then().statusCode(202);
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> as(ann).get("/users/" + ann + "/bookmarks").then()
                .body("items.postId", equalTo(List.of(first))));
        as(ann).delete("/posts/" + second + "/bookmarks").then().statusCode(200).body("bookmarked", equalTo(false));
        as(author).get("/users/" + author + "/bookmarks").then().body("items", hasSize(0));
    }
}
