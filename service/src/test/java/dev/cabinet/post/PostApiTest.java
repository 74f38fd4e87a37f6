package dev.cabinet.post;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.awaitOk;
import static dev.cabinet.support.Api.createPost;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.register;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

@QuarkusTest
class PostApiTest {

    @Test
    void aRegisteredUserWritesADraftThatCarriesTheirName() {
        String author = newUserId();
        register(author, "Ada");
        String postId = as(author).body(Map.of("title", "Engines", "body", "On the analytical engine"))
                .post("/posts")
                .then().statusCode(202)
                .body("type", equalTo("cabinet.post.created.v1"))
                .extract().path("id");

        awaitOk("/posts/" + postId)
                .body("id", equalTo(postId))
                .body("authorId", equalTo(author))
                .body("authorName", equalTo("Ada"))
                .body("title", equalTo("Engines"))
                .body("body", equalTo("On the analytical engine"))
                .body("status", equalTo("draft"))
                .body("commentCount", equalTo(0))
                .body("publishedAt", nullValue());
    }

    @Test
    void anUnregisteredUserCannotWritePosts() {
        as(newUserId()).body(Map.of("title", "T", "body", "B")).post("/posts")
                .then().statusCode(409).contentType("application/problem+json");
    }

    @Test
    void aUsersPostsAreListedNewestFirstPageByPageAndCountedExactly() {
        String author = newUserId();
        register(author, "Lin");
        List<String> created = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            created.add(createPost(author, "Post " + i));
        }
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().get("/users/" + author)
                .then().body("postCount", equalTo(5)));

        List<String> listed = new ArrayList<>();
        String cursor = null;
        do {
            var request = given().queryParam("limit", 2);
            if (cursor != null) {
                request.queryParam("cursor", cursor);
            }
            JsonPath page = request.get("/users/" + author + "/posts").then().statusCode(200).extract().jsonPath();
            listed.addAll(page.getList("items.id"));
            cursor = page.getString("next");
        } while (cursor != null);

        List<String> newestFirst = new ArrayList<>(created);
        Collections.reverse(newestFirst);
        assertEquals(newestFirst, listed);
    }

    @Test
    void theAuthorEditsAPostAndTheChangeReachesTheSummaryToo() {
        String author = newUserId();
        register(author, "Kay");
        String postId = createPost(author, "Draft title");
        as(author).body(Map.of("title", "Final title")).patch("/posts/" + postId).then().statusCode(202)
                .body("type", equalTo("cabinet.post.edited.v1"));

        await().atMost(PROJECTION_WAIT).untilAsserted(() -> {
            given().get("/posts/" + postId).then().body("title", equalTo("Final title"))
                    .body("body", equalTo("Body of Draft title"));
            given().get("/users/" + author + "/posts").then().body("items.title", hasItem("Final title"));
        });
    }

    @Test
    void theAuthorPublishesOnceAndOnlyTheAuthorMayChangeAPost() {
        String author = newUserId();
        String other = newUserId();
        register(author, "Mo");
        String postId = createPost(author, "News");

        as(other).body(Map.of("title", "Hijacked")).patch("/posts/" + postId).then().statusCode(403)
                .contentType("application/problem+json");
        as(other).post("/posts/" + postId + "/publish").then().statusCode(403);

        as(author).post("/posts/" + postId + "/publish").then().statusCode(202)
                .body("type", equalTo("cabinet.post.published.v1"));
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().get("/posts/" + postId).then()
                .body("status", equalTo("published")).body("publishedAt", notNullValue()));
        given().get("/users/" + author + "/posts").then().body("items[0].status", equalTo("published"));

        as(author).post("/posts/" + postId + "/publish").then().statusCode(409);
    }

    @Test
    void unknownPostsAre404AndInvalidBodiesAre400() {
        String author = newUserId();
        given().get("/posts/" + newUserId()).then().statusCode(404).contentType("application/problem+json");
        as(author).body(Map.of("title", "X")).patch("/posts/" + newUserId()).then().statusCode(404);
        as(author).body(Map.of("body", "no title")).post("/posts").then().statusCode(400)
                .body("errors.field", hasItem("title"));
        as(author).body(Map.of("title", "x".repeat(201), "body", "")).post("/posts").then().statusCode(400)
                .body("errors.field", hasItem("title"));
        as(author).body(Map.of()).patch("/posts/" + newUserId()).then().statusCode(400);
    }

    @Test
    void listsRefuseBadLimitsAndCursorsFromOtherLists() {
        String author = newUserId();
        register(author, "Cy");
        createPost(author, "One");
        createPost(author, "Two");
        String cursor = given().queryParam("limit", 1).get("/users/" + author + "/posts").then().statusCode(200)
                .extract().path("next");

        given().queryParam("limit", 0).get("/users/" + author + "/posts").then().statusCode(400)
                .body("errors.field", hasItem("limit"));
        given().queryParam("limit", 101).get("/users/" + author + "/posts").then().statusCode(400);
        given().queryParam("limit", "many").get("/users/" + author + "/posts").then().statusCode(400)
                .contentType("application/problem+json");
        given().queryParam("cursor", cursor).get("/users/" + newUserId() + "/posts").then().statusCode(400)
                .body("errors.field", hasItem("cursor"));
        given().queryParam("cursor", "%%%").get("/users/" + author + "/posts").then().statusCode(400);
        // Same partition (USER#author), another list: the signature binds a cursor to its list.
        given().queryParam("cursor", cursor).get("/users/" + author + "/groups").then().statusCode(400)
                .body("errors.field", hasItem("cursor"));
        String altered = cursor.substring(0, cursor.lastIndexOf('.')) + ".AAAA";
        given().queryParam("cursor", altered).get("/users/" + author + "/posts").then().statusCode(400)
                .body("detail", containsString("altered"));
    }
}
