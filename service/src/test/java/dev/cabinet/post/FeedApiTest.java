package dev.cabinet.post;

import dev.cabinet.table.Shards;
import static dev.cabinet.support.Api.allPages;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.createPost;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.publish;
import static dev.cabinet.support.Api.register;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/** The published feed (pattern 5): sharded on write, merged on read, paged with one position per shard. */
@QuarkusTest
class FeedApiTest {

    @ConfigProperty(name = "cabinet.feed.shards")
    int shards;

    @Test
    void theFeedListsPublishedPostsNewestFirstAcrossShardsPageByPage() {
        String alice = newUserId();
        String bob = newUserId();
        register(alice, "Alice");
        register(bob, "Bob");
        List<String> published = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            String author = i % 2 == 0 ? alice : bob;
            String postId = createPost(author, "Feed " + i);
            publish(author, postId);
            published.add(postId);
        }
        String draft = createPost(alice, "Never published");
        Set<Integer> shardsUsed = published.stream().map(id -> Shards.of(id, shards)).collect(Collectors.toSet());
        assertTrue(shardsUsed.size() > 1, "the posts should spread over several shards: " + shardsUsed);

        List<Map<String, Object>> feed = allPages("/posts?status=published", 5);

        List<Object> ids = feed.stream().map(item -> item.get("id")).toList();
        assertEquals(new HashSet<>(ids).size(), ids.size(), "no post twice");
        assertTrue(ids.containsAll(published), "every published post is in the feed");
        assertFalse(ids.contains(draft), "drafts stay out of the feed");
        assertEquals(sortedNewestFirst(feed), feed, "newest first across all shards");
        List<Object> ours = ids.stream().filter(published::contains).toList();
        List<String> newestFirst = new ArrayList<>(published);
        Collections.reverse(newestFirst);
        assertEquals(newestFirst, ours);
        Map<String, Object> entry = feed.get(ids.indexOf(published.get(0)));
        assertEquals("Alice", entry.get("authorName"));
        assertEquals("published", entry.get("status"));
        assertFalse(entry.containsKey("body"), "the feed index leaves bodies out");
    }

    @Test
    void postsPublishedWhileAClientPagesNeitherRepeatNorHideOlderOnes() {
        String author = newUserId();
        register(author, "Steady");
        List<String> before = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            String postId = createPost(author, "Before " + i);
            publish(author, postId);
            before.add(postId);
        }
        JsonPath page = given().queryParam("status", "published").queryParam("limit", 2).get("/posts")
                .then().statusCode(200).extract().jsonPath();
        List<Object> seen = new ArrayList<>(page.getList("items.id"));
        String cursor = page.getString("next");
        List<String> during = new ArrayList<>();
        while (cursor != null) {
            String postId = createPost(author, "During " + during.size());
            publish(author, postId);
            during.add(postId);
            page = given().queryParam("status", "published").queryParam("limit", 2).queryParam("cursor", cursor)
                    .get("/posts").then().statusCode(200).extract().jsonPath();
            seen.addAll(page.getList("items.id"));
            cursor = page.getString("next");
        }
        assertEquals(new HashSet<>(seen).size(), seen.size(), "no post twice");
        assertTrue(seen.containsAll(before), "every post published before the first page is seen");
        assertTrue(during.stream().noneMatch(seen::contains), "posts newer than the first page do not shift later pages");
    }

    @Test
    void theFeedRefusesOtherStatusesAndForeignCursors() {
        given().get("/posts").then().statusCode(400).body("errors.field", hasItem("status"));
        given().queryParam("status", "draft").get("/posts").then().statusCode(400).body("errors.field", hasItem("status"));
        String author = newUserId();
        register(author, "Cursor");
        createPost(author, "Some post");
        String userListCursor = given().queryParam("limit", 1).get("/users/" + author + "/posts").path("next");
        given().queryParam("status", "published").queryParam("cursor", userListCursor).get("/posts").then()
                .statusCode(400).body("errors.field", hasItem("cursor"));
        given().queryParam("status", "published").queryParam("cursor", "W10").get("/posts").then()
                .statusCode(400).body("errors.field", hasItem("cursor"));
        as(author).get("/posts?status=published&limit=0").then().statusCode(400);
    }

    private static List<Map<String, Object>> sortedNewestFirst(List<Map<String, Object>> feed) {
        Comparator<Map<String, Object>> byPublication = Comparator.comparing(
                (Map<String, Object> item) -> (String) item.get("publishedAt")).thenComparing(item -> (String) item.get("id"));
        return feed.stream().sorted(byPublication.reversed()).toList();
    }
}
