package dev.cabinet.conditional;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.createGroup;
import static dev.cabinet.support.Api.createPost;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.register;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.Topics;
import dev.cabinet.support.EventLogReader;
import dev.cabinet.shared.Ids;
import io.quarkus.test.junit.QuarkusTest;

/** ETag on single resources, If-None-Match on reads, and If-Match on commands (412 for a stale version). */
@QuarkusTest
class ConditionalRequestTest {

    @Test
    void aProfileChangesOnlyIfItIsStillTheVersionTheClientRead() {
        String user = newUserId();
        register(user, "Tagged");
        String first = etag(user, "/users/" + user);
        as(user).header("If-None-Match", first).get("/users/" + user).then().statusCode(304);
        String asOthersSeeIt = etag(null, "/users/" + user);
        assertNotEquals(first, asOthersSeeIt, "the profile without its email has a tag of its own");
        given().header("If-None-Match", first).get("/users/" + user).then().statusCode(200).body("email", nullValue());
        as(user).header("If-None-Match", asOthersSeeIt).get("/users/" + user).then().statusCode(200)
                .body("email", equalTo(user + "@example.com"));
        given().header("If-None-Match", asOthersSeeIt).get("/users/" + user).then().statusCode(304);

        as(user).header("If-Match", first).body(Map.of("name", "Second")).patch("/users/" + user)
                .then().statusCode(202);
        await().atMost(PROJECTION_WAIT).until(() -> "Second".equals(given().get("/users/" + user).path("name")));
        String second = etag(user, "/users/" + user);
        assertNotEquals(first, second, "a new version has a new tag");
        as(user).header("If-None-Match", first).get("/users/" + user).then().statusCode(200);

        int events = EventLogReader.recordsWithKey(Topics.USERS, user).size();
        as(user).header("If-Match", first).body(Map.of("name", "Lost update")).patch("/users/" + user)
                .then().statusCode(412).contentType("application/problem+json")
                .body("type", equalTo("urn:cabinet:problem:precondition-failed"))
                .body("detail", containsString(second)).header("ETag", equalTo(second));
        assertEquals(events, EventLogReader.recordsWithKey(Topics.USERS, user).size(), "a refused command wrote an event");
        as(user).header("If-Match", "\"a\", " + second).body(Map.of("name", "Third")).patch("/users/" + user)
                .then().statusCode(202);
    }

    @Test
    void postsAndGroupsHonourIfMatchAndAMissingResourceMatchesNothing() {
        String author = newUserId();
        register(author, "Author");
        String post = createPost(author, "Tagged post");
        String tag = etag(null, "/posts/" + post);
        as(author).header("If-Match", "\"stale\"").post("/posts/" + post + "/publish").then().statusCode(412);
        as(author).header("If-Match", tag).post("/posts/" + post + "/publish").then().statusCode(202);
        as(author).header("If-Match", "*").delete("/posts/p" + Ids.newId()).then().statusCode(412)
                .body("detail", equalTo("the resource does not exist"));

        String group = createGroup(author, "Tagged group");
        as(author).header("If-Match", "\"stale\"").body(Map.of("name", "Renamed")).patch("/groups/" + group)
                .then().statusCode(412);
        as(author).header("If-Match", etag(null, "/groups/" + group)).body(Map.of("name", "Renamed"))
                .patch("/groups/" + group).then().statusCode(202);
    }

    @Test
    void ifMatchWhereNoVersionIsKeptIsRefusedRatherThanIgnored() {
        String user = newUserId();
        register(user, "Member");
        String group = createGroup(user, "Own group");
        as(user).header("If-Match", "*").delete("/groups/" + group + "/members/" + user).then().statusCode(400)
                .body("detail", containsString("If-Match is not supported"));
    }

    /**
     * {@code If-None-Match} on a command (RFC 9110): {@code *} makes a {@code PUT} create-only, a listed tag refuses a
     * change while the resource still has it; where no tag is kept it is refused rather than ignored.
     */
    @Test
    void ifNoneMatchOnACommandRefusesWhatItNames() {
        String user = newUserId();
        as(user).header("If-None-Match", "*").body(Map.of("name", "First", "email", user + "@example.com"))
                .put("/users/" + user).then().statusCode(202);
        await().atMost(PROJECTION_WAIT).until(() -> "First".equals(given().get("/users/" + user).path("name")));
        String tag = etag(user, "/users/" + user);

        int events = EventLogReader.recordsWithKey(Topics.USERS, user).size();
        as(user).header("If-None-Match", "*").body(Map.of("name", "Replaced", "email", user + "@example.com"))
                .put("/users/" + user).then().statusCode(412)
                .body("type", equalTo("urn:cabinet:problem:precondition-failed"))
                .body("detail", equalTo("the resource exists already")).header("ETag", equalTo(tag));
        as(user).header("If-None-Match", "\"other\", W/" + tag).body(Map.of("name", "Changed")).patch("/users/" + user)
                .then().statusCode(412);
        assertEquals(events, EventLogReader.recordsWithKey(Topics.USERS, user).size(), "a refused command wrote an event");
        as(user).header("If-None-Match", "\"other\"").body(Map.of("name", "Changed")).patch("/users/" + user)
                .then().statusCode(202);

        String group = createGroup(user, "Own group");
        as(user).header("If-None-Match", "*").delete("/groups/" + group + "/members/" + user).then().statusCode(400)
                .body("detail", containsString("If-None-Match is not supported"));
    }

    /**
     * A post read with its comments is tagged over the comments too: a commenter's rename rewrites their comment, not
     * the post, and a client revalidating the page must not be told it still holds the old name.
     */
    @Test
    void aPostWithItsCommentsHasANewTagWhenACommenterIsRenamed() {
        String author = newUserId();
        String commenter = newUserId();
        register(author, "Author");
        register(commenter, "Before");
        String post = createPost(author, "Commented");
        as(commenter).header("Prefer", "wait=10").body(Map.of("text", "First!")).post("/posts/" + post + "/comments")
                .then().statusCode(200);
        String page = etag(null, "/posts/" + post + "?include=comments");
        String own = etag(null, "/posts/" + post);
        assertNotEquals(own, page, "the page's tag is not the post's");
        given().header("If-None-Match", page).get("/posts/" + post + "?include=comments").then().statusCode(304);

        as(commenter).header("Prefer", "wait=10").body(Map.of("name", "After")).patch("/users/" + commenter)
                .then().statusCode(200);
        await().atMost(PROJECTION_WAIT).until(() -> "After".equals(
                given().get("/posts/" + post + "/comments").path("items[0].authorName")));
        assertEquals(own, etag(null, "/posts/" + post), "the post item itself did not change");
        given().header("If-None-Match", page).get("/posts/" + post + "?include=comments").then().statusCode(200)
                .body("comments.items[0].authorName", equalTo("After"));
    }

    /** The tag of {@code path} as {@code user} reads it (null: without a token). */
    private static String etag(String user, String path) {
        return (user == null ? given() : as(user)).get(path).then().statusCode(200)
                .header("ETag", matchesPattern("\"[A-Za-z0-9_-]{22}\"")).extract().header("ETag");
    }
}
