package dev.cabinet.rebuild;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.allPages;
import static dev.cabinet.support.Api.applied;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.asOperator;
import static dev.cabinet.support.Api.comment;
import static dev.cabinet.support.Api.createPost;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.publish;
import static dev.cabinet.support.Api.register;
import static dev.cabinet.support.Api.waiting;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.Topics;
import dev.cabinet.shared.Ids;
import dev.cabinet.support.ForeignProducer;
import dev.cabinet.support.ProjectorLag;
import dev.cabinet.table.ActiveTable;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Index;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.KeyQuery;
import dev.cabinet.table.SortKeyCondition;
import dev.cabinet.table.TableReader;
import dev.cabinet.table.TableWriter;
import dev.cabinet.table.query.PageRequest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * An operator rebuilds one post's items from its events after they were damaged by hand: the post, its comments, its
 * comment count and its author's summary come back exactly as the live projection had made them, while what other
 * streams own (the likes and their count, the author's postCount) is neither lost nor counted twice.
 */
@QuarkusTest
class StreamRebuildTest {

    private static final Duration STORE_WAIT = Duration.ofSeconds(10);

    @Inject
    TableReader table;

    @Inject
    TableWriter writer;

    @Inject
    ActiveTable activeTable;

    @Inject
    DynamoDbAsyncClient dynamo;

    @Test
    void aDamagedPostIsRebuiltFromItsEventsToWhatTheLiveProjectionMade() {
        String author = newUserId();
        String reader = newUserId();
        register(author, "Author");
        register(reader, "Reader");
        String post = createPost(author, "Original title");
        String first = comment(reader, post, "First");
        comment(author, post, "Second");
        String third = comment(reader, post, "Third");
        await().atMost(PROJECTION_WAIT).until(() -> given().get("/posts/" + post).jsonPath()
                .getInt("commentCount") == 3);
        applied(waiting(reader).delete("/posts/" + post + "/comments/" + first));
        applied(waiting(author).body(Map.of("title", "Edited title")).patch("/posts/" + post));
        publish(author, post);
        applied(waiting(reader).put("/posts/" + post + "/likes"));
        applied(waiting(author).put("/posts/" + post + "/likes"));
        ProjectorLag.awaitCaughtUp(PROJECTION_WAIT);
        given().get("/posts/" + post).then().statusCode(200).body("title", equalTo("Edited title"))
                .body("commentCount", equalTo(2)).body("likeCount", equalTo(2));
        Map<String, Map<String, AttributeValue>> live = items(post, author);

        // Damage by hand, behind the projector's back: a title, a comment gone, a counter and the author's summary.
        Map<String, AttributeValue> thirdComment = live.values().stream()
                .filter(item -> third.equals(string(item, Attributes.COMMENT_ID))).findFirst().orElseThrow();
        Map<String, AttributeValue> shard = live.values().stream()
                .filter(item -> KeyPlan.POST_COUNTER.matches(Key.of(item)) && item.containsKey(Attributes.COMMENT_COUNT))
                .findFirst().orElseThrow();
        Key summary = live.values().stream().map(Key::of).filter(KeyPlan.USER_POST::matches).findFirst().orElseThrow();
        done(writer.update(ItemUpdate.of(KeyPlan.POST.key(post)).set(Attributes.TITLE, "Damaged")));
        done(writer.delete(Key.of(thirdComment)));
        done(writer.update(ItemUpdate.of(Key.of(shard)).set(Attributes.COMMENT_COUNT, 40)));
        done(writer.update(ItemUpdate.of(summary).set(Attributes.TITLE, "Damaged")));
        given().get("/posts/" + post).then().body("title", equalTo("Damaged"));
        assertNotEquals(live, items(post, author), "the damage shows in the table");

        JsonPath done = asOperator().post("/admin/rebuilds/streams/" + Topics.POSTS + "/" + post).then()
                .statusCode(200).extract().jsonPath();
        assertEquals(post, done.getString("key"));
        assertEquals("post " + post, done.getString("stream"));
        assertEquals(7, done.getInt("events"), "created, three comments, one deleted, edited, published");
        assertEquals(1, done.getInt("rounds"));
        long owned = live.values().stream().map(Key::of).filter(key -> KeyPlan.POST.matches(key)
                || KeyPlan.COMMENT.matches(key) || KeyPlan.USER_POST.matches(key)).count()
                + live.values().stream().filter(item -> KeyPlan.POST_COUNTER.matches(Key.of(item))
                        && item.containsKey(KeyPlan.POST_STREAM.versionAttribute())).count();
        assertEquals(owned, done.getLong("items"), "the post, its two comments, the shards they counted on, the summary");

        assertEquals(live, items(post, author), "every item as the live projection made it");
        given().get("/posts/" + post).then().statusCode(200).body("title", equalTo("Edited title"))
                .body("commentCount", equalTo(2)).body("likeCount", equalTo(2));
        given().get("/users/" + author).then().body("postCount", equalTo(1));

        // A later event of the post is applied to the rebuilt stream as to any other.
        applied(waiting(reader).body(Map.of("text", "After")).post("/posts/" + post + "/comments"));
        given().get("/posts/" + post).then().body("commentCount", equalTo(3));
    }

    /**
     * A deleted post whose log goes on after the deletion (a comment the API accepted from a lagging read model, here
     * written straight to the log, rejected when applied): the rebuild replays the deletion, whose count on the
     * author's postCount was made live, and must not make it a second time.
     */
    @Test
    void aDeletedPostWhoseLogGoesOnAfterTheDeletionKeepsItsAuthorsPostCount() throws Exception {
        String author = newUserId();
        register(author, "Deleter");
        createPost(author, "Kept");
        String post = createPost(author, "Gone");
        applied(waiting(author).delete("/posts/" + post));
        String late = Ids.newId();
        ForeignProducer.produce(Topics.POSTS, post, late, "cabinet.comment.added.v1", "{\"postId\":\"" + post
                + "\",\"commentId\":\"" + Ids.newId() + "\",\"authorId\":\"" + author
                + "\",\"text\":\"Too late\",\"createdAt\":\"2026-01-01T00:00:00.000Z\"}");
        await().atMost(PROJECTION_WAIT).until(() -> "rejected".equals(given().get("/commands/" + late).path("status")));
        given().get("/users/" + author).then().body("postCount", equalTo(1));

        asOperator().post("/admin/rebuilds/streams/" + Topics.POSTS + "/" + post).then().statusCode(200)
                .body("events", equalTo(3));

        given().get("/users/" + author).then().body("postCount", equalTo(1));
        given().get("/posts/" + post).then().statusCode(404);
        given().get("/commands/" + late).then().body("status", equalTo("rejected"));
    }

    /**
     * Comments keep arriving while the post is rebuilt: the live projector may apply one to the half-rebuilt post or
     * reject it for finding none, and the rebuild then runs again with it. In the end every accepted comment is there,
     * counted once, and none is left rejected; the API may refuse a comment (404) while the post is being recreated.
     */
    @Test
    void commentsArrivingDuringTheRebuildAreNeitherLostNorCountedTwice() throws Exception {
        String author = newUserId();
        register(author, "Busy author");
        String post = createPost(author, "Busy");
        for (int i = 0; i < 30; i++) {
            comment(author, post, "Before " + i);
        }
        await().atMost(PROJECTION_WAIT).until(() -> given().get("/posts/" + post).jsonPath()
                .getInt("commentCount") == 30);

        ExecutorService commenter = Executors.newSingleThreadExecutor();
        Future<List<String>> during = commenter.submit(() -> {
            List<String> accepted = new ArrayList<>();
            for (int i = 0; i < 15; i++) {
                Response answer = as(author).body(Map.of("text", "During " + i)).post("/posts/" + post + "/comments");
                if (answer.statusCode() == 202) {
                    accepted.add(answer.path("eventId"));
                } else {
                    assertEquals(404, answer.statusCode(), answer.asString());   // the post was being recreated
                }
                Thread.sleep(15);
            }
            return accepted;
        });
        JsonPath done = asOperator().post("/admin/rebuilds/streams/" + Topics.POSTS + "/" + post).then()
                .statusCode(200).extract().jsonPath();
        List<String> accepted = during.get(60, TimeUnit.SECONDS);
        commenter.shutdown();
        ProjectorLag.awaitCaughtUp(PROJECTION_WAIT);

        int comments = 30 + accepted.size();
        assertEquals(comments, allPages("/posts/" + post + "/comments", 100).size(), "rounds: " + done.getInt("rounds"));
        given().get("/posts/" + post).then().statusCode(200).body("commentCount", equalTo(comments));
        given().get("/users/" + author).then().body("postCount", equalTo(1));
        for (String eventId : accepted) {
            Object status = given().get("/commands/" + eventId).path("status");
            assertNotEquals("rejected", status, eventId + " was applied in the end");
        }
        // Once the log is quiet, another rebuild changes nothing.
        Map<String, Map<String, AttributeValue>> settled = items(post, author);
        asOperator().post("/admin/rebuilds/streams/" + Topics.POSTS + "/" + post).then().statusCode(200)
                .body("rounds", equalTo(1)).body("events", equalTo(1 + comments));
        assertEquals(settled, items(post, author));
    }

    /**
     * After a cut-over, until the operators' instances are re-targeted, a stream rebuild would write where this
     * instance projects, a table no one reads, and answer 200 while the table answering reads stays damaged: refused.
     */
    @Test
    void aStreamIsNotRebuiltInATableThatAnswersNoReads() {
        String author = newUserId();
        register(author, "Author");
        String post = createPost(author, "Elsewhere");
        String elsewhere = "cabinet-rebuild-" + Ids.newId().toLowerCase();
        Map<String, AttributeValue> pointer = new HashMap<>(ActiveTable.pointerKey().toAttributes());
        pointer.put(KeyPlan.TYPE, AttributeValue.fromS(KeyPlan.ACTIVE_READ_MODEL.name()));
        pointer.put(ActiveTable.ATTRIBUTE, AttributeValue.fromS(elsewhere));
        dynamo.putItem(b -> b.tableName(activeTable.home()).item(pointer)).join();
        try {
            asOperator().post("/admin/rebuilds/streams/" + Topics.POSTS + "/" + post).then().statusCode(409)
                    .body("detail", containsString("reads are answered from table " + elsewhere));
        } finally {
            dynamo.deleteItem(b -> b.tableName(activeTable.home()).key(ActiveTable.pointerKey().toAttributes()))
                    .join();
            activeTable.lookUp().await().atMost(STORE_WAIT);
        }
        asOperator().post("/admin/rebuilds/streams/" + Topics.POSTS + "/" + post).then().statusCode(200);
    }

    @Test
    void onlyOperatorsRebuildAndEachRefusalSaysWhy() {
        String liker = newUserId();
        register(liker, "Liker");
        String post = createPost(liker, "Liked");
        applied(waiting(liker).put("/posts/" + post + "/likes"));

        as(liker).post("/admin/rebuilds/streams/" + Topics.POSTS + "/" + post).then().statusCode(403);
        asOperator().post("/admin/rebuilds/streams/cabinet.nothing/" + post).then().statusCode(404)
                .contentType("application/problem+json").body("detail", containsString("topic cabinet.nothing"));
        asOperator().post("/admin/rebuilds/streams/" + Topics.POSTS + "/" + Ids.newId()).then().statusCode(404)
                .contentType("application/problem+json").body("detail", containsString("has no events"));
        asOperator().post("/admin/rebuilds/streams/" + Topics.POSTS + "/" + liker).then().statusCode(409)
                .contentType("application/problem+json").body("detail", containsString("not a post's"));
        asOperator().post("/admin/rebuilds/streams/" + Topics.FOLDERS + "/" + liker).then().statusCode(409)
                .contentType("application/problem+json").body("detail", containsString("blue/green"))
                .body("detail", containsString("rebuilt on " + Topics.CUSTOMERS + ", " + Topics.FILES + ", "));
        asOperator().post("/admin/rebuilds/streams/" + Topics.GROUPS + "/" + Ids.newId()).then().statusCode(404)
                .contentType("application/problem+json").body("detail", containsString("has no events"));
        asOperator().post("/admin/rebuilds/streams/" + Topics.POSTS + "/not%20an%20id").then().statusCode(400)
                .contentType("application/problem+json");
        // A blue/green rebuild's table is named <home>-rebuild-<suffix>, the only tables besides the home table the IAM
        // policies grant: another name is refused before anything reads it.
        asOperator().get("/admin/rebuilds/cabinet-billing").then().statusCode(400)
                .contentType("application/problem+json").body("detail", containsString("cabinet-rebuild-<suffix>"));
        asOperator().post("/admin/rebuilds/cabinet-billing/cut-over").then().statusCode(400);
        // A well-formed name of a rebuild table that was never created (a typo): the client's mistake, not a 500.
        asOperator().get("/admin/rebuilds/cabinet-rebuild-never-made").then().statusCode(404)
                .contentType("application/problem+json")
                .body("detail", containsString("table cabinet-rebuild-never-made does not exist"));
        asOperator().post("/admin/rebuilds/cabinet-rebuild-never-made/verify").then().statusCode(404);
    }

    /**
     * Every item the post's stream or its likes touch: the post's partition, its likes, the author's summaries and
     * profile; by key.
     */
    private Map<String, Map<String, AttributeValue>> items(String post, String author) {
        Map<String, Map<String, AttributeValue>> items = new TreeMap<>();
        for (KeyQuery query : new KeyQuery[] {
                KeyQuery.of(Index.TABLE, KeyPlan.POST.partition(post), SortKeyCondition.any(), false),
                KeyQuery.of(Index.TABLE, KeyPlan.LIKE.partition(post), SortKeyCondition.any(), false),
                KeyQuery.of(Index.TABLE, KeyPlan.USER_PROFILE.partition(author), SortKeyCondition.any(), false) }) {
            for (Map<String, AttributeValue> item : done(table.query(query, new PageRequest(100, null))).items()) {
                items.put(Key.of(item).toString(), item);
            }
        }
        return items;
    }

    private static String string(Map<String, AttributeValue> item, String name) {
        return item.containsKey(name) ? item.get(name).s() : null;
    }

    private static <T> T done(io.smallrye.mutiny.Uni<T> call) {
        return call.await().atMost(STORE_WAIT);
    }
}
