package dev.cabinet.post;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.applied;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.comment;
import static dev.cabinet.support.Api.createPost;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.publish;
import static dev.cabinet.support.Api.register;
import static dev.cabinet.support.Api.waiting;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.cabinet.consistency.LogPositions;
import dev.cabinet.eventlog.Appended;
import dev.cabinet.eventlog.EventLog;
import dev.cabinet.eventlog.LogPosition;
import dev.cabinet.eventlog.Topics;
import dev.cabinet.post.LikeEvent.PostLiked;
import dev.cabinet.post.LikeEvent.PostUnliked;
import dev.cabinet.projection.contract.ReceivedEvent;
import dev.cabinet.projection.execution.BatchEndChecks;
import dev.cabinet.projection.execution.PlanExecutor;
import dev.cabinet.shared.Ids;
import dev.cabinet.shared.Timestamps;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.CountersConfig;
import dev.cabinet.table.Index;
import dev.cabinet.table.Items;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.KeyQuery;
import dev.cabinet.table.SortKeyCondition;
import dev.cabinet.table.TableReader;
import dev.cabinet.table.TableWriter;
import dev.cabinet.table.query.PageRequest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Likes end to end: the caller's like and unlike, likeCount on the post, its page and the feed, a user's likes. */
@QuarkusTest
class LikeApiTest {

    @Inject
    EventLog log;

    @Inject
    LogPositions positions;

    @Inject
    TableReader table;

    @Inject
    PlanExecutor executor;

    @Inject
    BatchEndChecks checks;

    @Inject
    LikeProjector likes;

    @Inject
    CountersConfig counters;

    @Test
    void aUserLikesAndUnlikesPostsWhichCountOnThePostItsPageAndTheFeedAndLeaveWithThePost() {
        String author = newUserId();
        String ann = newUserId();
        register(author, "Author");
        register(ann, "Ann");
        String post = createPost(author, "Likeable");
        publish(author, post);
        String other = createPost(author, "Also likeable");
        for (int i = 0; i < 3; i++) {
            comment(author, post, "Comment " + i);
        }

        as(ann).put("/posts/" + post + "/likes").then().statusCode(202).body("position", notNullValue());
        as(author).put("/posts/" + post + "/likes").then().statusCode(202);
        await().atMost(PROJECTION_WAIT).until(() -> likes(post) == 2);
        applied(waiting(ann).put("/posts/" + post + "/likes"));   // liked again: appended, and nothing changes
        assertEquals(2, likes(post));
        as(ann).put("/posts/" + other + "/likes").then().statusCode(202);
        await().atMost(PROJECTION_WAIT).until(() -> likes(other) == 1);
        as(newUserId()).put("/posts/" + post + "/likes").then().statusCode(409);   // not registered
        as(ann).put("/posts/" + Ids.newId() + "/likes").then().statusCode(404);

        // Pattern 3 reads the shards with the post and its comments; the shards take no comment's place.
        await().atMost(PROJECTION_WAIT).until(() -> given().queryParam("limit", 2)
                .get("/posts/" + post + "?include=comments").jsonPath().getInt("comments.items.size()") == 2);
        JsonPath page = given().queryParam("limit", 2).get("/posts/" + post + "?include=comments").then()
                .statusCode(200).body("likeCount", equalTo(2)).extract().jsonPath();
        assertEquals(List.of("Comment 2", "Comment 1"), page.getList("comments.items.text"));
        given().queryParam("cursor", page.getString("comments.next")).queryParam("order", "desc")
                .get("/posts/" + post + "/comments").then().statusCode(200)
                .body("items.text", equalTo(List.of("Comment 0")));
        assertEquals(2L, feedLikes(post));
        given().get("/users/" + ann + "/likes").then().statusCode(200)
                .body("items.postId", equalTo(List.of(other, post)));   // newest like first

        as(ann).delete("/posts/" + post + "/likes").then().statusCode(202);
        await().atMost(PROJECTION_WAIT).until(() -> likes(post) == 1);
        applied(waiting(ann).delete("/posts/" + post + "/likes"));   // unliked again: nothing changes
        assertEquals(1, likes(post));
        given().get("/users/" + ann + "/likes").then().body("items.postId", equalTo(List.of(other)));
        as(ann).put("/posts/" + post + "/likes").then().statusCode(202);   // liked again: counted again
        await().atMost(PROJECTION_WAIT).until(() -> likes(post) == 2);
        given().get("/users/" + ann + "/likes").then().body("items.postId", equalTo(List.of(post, other)));

        as(author).delete("/posts/" + post).then().statusCode(202);
        await().atMost(PROJECTION_WAIT).until(() -> given().get("/posts/" + post).statusCode() == 404);
        given().get("/users/" + ann + "/likes").then().body("items.postId", equalTo(List.of(other)));
        given().get("/users/" + author + "/likes").then().body("items", hasSize(0));
        assertEquals(List.of(), items(KeyQuery.of(Index.TABLE, KeyPlan.LIKE.partition(post), SortKeyCondition.any(),
                false)), "the post's likes went with it");
        assertEquals(List.of(), counterShards(post), "and so did its likeCount shards");
    }

    /**
     * 1,000 users like one post within seconds (their events straight to the log, with the service's own producer):
     * the count ends exact, and the counter writes spread over every shard instead of queueing on one item.
     */
    @Test
    void aThousandLikesOfOnePostEndExactAndSpreadOverTheCounterShards() {
        String author = newUserId();
        register(author, "Viral");
        String post = createPost(author, "Viral");
        String at = Timestamps.format(Instant.now());
        int likers = 1_000;
        Multi.createFrom().range(0, likers)
                .onItem().transformToUni(i -> {
                    String user = Ids.newId();
                    return log.append(LikeEvent.LIKED, new PostLiked(post, user, at), user);
                })
                .merge(64)
                .collect().asList()
                .await().atMost(Duration.ofSeconds(60));

        await().atMost(Duration.ofSeconds(120)).until(() -> likes(post) == likers);

        List<Map<String, AttributeValue>> shardItems = counterShards(post);
        List<Long> perShard = shardItems.stream().map(item -> Items.number(item, Attributes.LIKE_COUNT)).toList();
        assertEquals(counters.shards(), shardItems.size(), "every shard took likes: " + perShard);
        assertEquals(likers, perShard.stream().mapToLong(Long::longValue).sum());
        long share = likers / counters.shards();
        assertTrue(perShard.stream().allMatch(count -> count < 2 * share), "no shard took more than twice its share: "
                + perShard);
        // The counts' tokens are released in writes of many at once, by the end of each batch: none stays pending.
        await().atMost(Duration.ofSeconds(30)).until(() -> counterShards(post).stream()
                .noneMatch(item -> item.containsKey(TableWriter.PENDING_COUNTS)));
    }

    /**
     * Users who like, unlike and like again, each as fast as the log takes it: their events share batches, so a like's
     * flag, written when its batch ends, can land after the same user's unlike and before the next like is counted. The
     * flag is the like's version, not a yes, so the next like still counts: the count ends at one per user.
     */
    @Test
    void likesUnlikesAndLikesAgainInOneBurstCountOncePerUser() {
        String author = newUserId();
        register(author, "Fickle");
        String post = createPost(author, "Fickle");
        int users = 20;
        List<Appended> lastOfEach = Multi.createFrom().range(0, users)
                .onItem().transformToUni(i -> {
                    String user = Ids.newId();
                    Uni<Appended> toggles = Uni.createFrom().nullItem();
                    for (int toggle = 0; toggle < 5; toggle++) {
                        String at = Timestamps.format(Instant.now());
                        boolean like = toggle % 2 == 0;
                        toggles = toggles.chain(() -> like
                                ? log.append(LikeEvent.LIKED, new PostLiked(post, user, at), user)
                                : log.append(LikeEvent.UNLIKED, new PostUnliked(post, user, at), user));
                    }
                    return toggles;
                })
                .merge(users)
                .collect().asList()
                .await().atMost(Duration.ofSeconds(60));

        for (Appended last : lastOfEach) {
            assertTrue(positions.awaitApplied(last.position(), Duration.ofSeconds(60)).await()
                    .atMost(Duration.ofSeconds(70)), "every toggle applied");
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> counterShards(post).stream()
                .noneMatch(item -> item.containsKey(TableWriter.PENDING_COUNTS)));
        assertEquals(users, likes(post), "one like counted per user");
    }

    /**
     * A like and its withdrawal sent back to back: the withdrawal's read of the like does not see it yet (the like is
     * not projected), and it was answered 200 "not liked" with nothing appended, so the like stayed although the last
     * answer the user got said it was gone. Both are appended now, and the log's order decides.
     */
    @Test
    void aLikeWithdrawnBeforeItIsProjectedIsWithdrawnAndAWithdrawalUndoneLikewise() {
        String author = newUserId();
        String ann = newUserId();
        register(author, "Quick");
        register(ann, "Ann");
        String post = createPost(author, "Tapped twice");
        for (int round = 0; round < 3; round++) {
            as(ann).put("/posts/" + post + "/likes").then().statusCode(202);
            applied(waiting(ann).delete("/posts/" + post + "/likes"));
            assertEquals(0, likes(post), "round " + round);
            given().get("/users/" + ann + "/likes").then().body("items", hasSize(0));
        }
        applied(waiting(ann).put("/posts/" + post + "/likes"));
        as(ann).delete("/posts/" + post + "/likes").then().statusCode(202);
        applied(waiting(ann).put("/posts/" + post + "/likes"));
        assertEquals(1, likes(post));
        given().get("/users/" + ann + "/likes").then().body("items.postId", equalTo(List.of(post)));
    }

    /**
     * A like applied after its post's deletion ran to the end (likes and shards deleted): the window a like races the
     * deletion in, and what a replay may do. It is applied, counted on a shard, and its second look, when its batch
     * ends, finds the tombstone and deletes both; no rejection is recorded, as none was live.
     */
    @Test
    void aLikeAppliedAfterItsPostWasDeletedRemovesItselfAndItsShard() throws Exception {
        String author = newUserId();
        register(author, "Brief");
        String post = createPost(author, "Short-lived");
        as(author).delete("/posts/" + post).then().statusCode(202);
        await().atMost(PROJECTION_WAIT).until(() -> given().get("/posts/" + post).statusCode() == 404);
        String user = Ids.newId();
        String eventId = Ids.newId();
        executor.apply(likes, new ReceivedEvent(eventId, LikeEvent.LIKED.name(), user, user,
                Instant.now(), new PostLiked(post, user, Timestamps.format(Instant.now())),
                new LogPosition(Topics.POSTS, 0, 1))).await().atMost(Duration.ofSeconds(10));
        checks.settled().toCompletableFuture().get(10, TimeUnit.SECONDS);   // its batch's end: the orphan check

        assertEquals(Optional.empty(), table.get(KeyPlan.LIKE.key(post, user)).await().atMost(Duration.ofSeconds(10)),
                "the like found the tombstone and deleted itself");
        assertEquals(List.of(), counterShards(post), "and the shard it counted on");
        assertEquals(Optional.empty(), table.get(KeyPlan.EVENT_OUTCOME.key(eventId)).await()
                .atMost(Duration.ofSeconds(10)), "no rejection recorded");
    }

    private static long likes(String postId) {
        return given().get("/posts/" + postId).then().statusCode(200).extract().jsonPath().getLong("likeCount");
    }

    private static long feedLikes(String postId) {
        List<Map<String, Object>> feed = given().queryParam("status", "published").queryParam("limit", 100)
                .get("/posts").then().statusCode(200).extract().jsonPath().getList("items");
        return feed.stream().filter(entry -> postId.equals(entry.get("id"))).findFirst()
                .map(entry -> ((Number) entry.get("likeCount")).longValue()).orElseThrow();
    }

    private List<Map<String, AttributeValue>> counterShards(String postId) {
        return items(KeyQuery.of(Index.TABLE, KeyPlan.POST.partition(postId),
                SortKeyCondition.beginsWith(KeyPlan.POST_COUNTER.sk().prefix()), false));
    }

    private List<Map<String, AttributeValue>> items(KeyQuery query) {
        return new ArrayList<>(table.query(query, new PageRequest(100, null)).await().atMost(Duration.ofSeconds(10))
                .items());
    }
}
