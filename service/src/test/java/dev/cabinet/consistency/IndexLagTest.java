package dev.cabinet.consistency;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.asOperator;
import static dev.cabinet.support.Api.createPost;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.register;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.cabinet.devservices.launcher.IndexLag;
import dev.cabinet.devservices.launcher.StoreHooks;
import dev.cabinet.eventlog.Topics;
import dev.cabinet.projection.ordering.LogKey;
import dev.cabinet.shared.Ids;
import dev.cabinet.support.ForeignProducer;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Issue 38, item 1: against a store whose index entries show 1 s after the write (dynalite's gsiLag knob), a command
 * that answered "applied" is in the index-backed list at the first read, and a Consistency-Token read of such a list
 * shows the write: Cabinet records a position as applied only once index reads show what was written before it.
 */
@QuarkusTest
class IndexLagTest {

    private static StoreHooks hooks() {
        return new StoreHooks(ConfigProvider.getConfig().getValue("quarkus.dynamodb.endpoint-override", String.class));
    }

    @BeforeAll
    static void indexesLagBehindTheTable() {
        hooks().indexLag(IndexLag.parse("1s"));
        assertTrue(hooks().current().contains("\"gsiLag\":{\"minMs\":1000,\"maxMs\":1000}"), hooks().current());
    }

    @AfterAll
    static void indexesCatchUp() {
        hooks().indexLag(IndexLag.NONE);
    }

    @Test
    void aPostPublishedWithPreferWaitIsInTheFirstFeedRead() {
        String author = newUserId();
        register(author, "Lagging Author");
        String postId = createPost(author, "Lagging feed");
        as(author).header("Prefer", "wait=5").post("/posts/" + postId + "/publish").then().statusCode(200)
                .body("outcome", equalTo("applied"));
        given().queryParam("status", "published").get("/posts").then().statusCode(200)
                .body("items.id", hasItem(postId));
    }

    /**
     * A publish parked behind a poison record of its post, then retried by an operator: the Consistency-Token of its
     * 202 reads the feed with the post in it as soon as the retry answers, as for an event the projector applied.
     */
    @Test
    void aParkedPublishRetriedByAnOperatorIsInTheFirstFeedReadWithItsToken() throws Exception {
        String author = newUserId();
        register(author, "Parked Author");
        String postId = createPost(author, "Parked, then retried");
        ForeignProducer.produce(Topics.POSTS, postId, Ids.newId(), "cabinet.post.published.v1", "{not json");
        String parkedKey = new LogKey(Topics.POSTS, 0, postId).id();
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> asOperator().get("/admin/parked-keys/" + parkedKey)
                .then().statusCode(200));
        String token = as(author).post("/posts/" + postId + "/publish").then().statusCode(202).extract()
                .path("position");
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> asOperator().get("/admin/parked-keys/" + parkedKey)
                .then().statusCode(200).body("events", hasSize(2)));
        asOperator().post("/admin/parked-keys/" + parkedKey + "/discard?events=first").then().statusCode(200);
        asOperator().post("/admin/parked-keys/" + parkedKey + "/retry").then().statusCode(200)
                .body("state", equalTo("released")).body("applied", equalTo(1));
        given().header("Consistency-Token", token).queryParam("status", "published").get("/posts").then()
                .statusCode(200).body("items.id", hasItem(postId));
    }

    @Test
    void aCommentSentWithPreferWaitIsInTheFirstReadOfItsAuthorsComments() {
        String author = newUserId();
        register(author, "Lagging Commenter");
        String postId = createPost(author, "Commented while lagging");
        String commentId = as(author).header("Prefer", "wait=5").body(Map.of("text", "Seen through the lag"))
                .post("/posts/" + postId + "/comments").then().statusCode(200)
                .body("outcome", equalTo("applied")).extract().path("id");
        given().get("/users/" + author + "/comments").then().statusCode(200)
                .body("items.id", hasItem(commentId));
    }

    @Test
    void anOrderPlacedWithPreferWaitIsFoundByIdAndInItsDaysOrders() {
        String customer = "C" + Ids.newId();
        String clerk = newUserId();
        as(clerk).header("Prefer", "wait=5").body(Map.of("name", "Lagging Shop", "email", customer + "@example.com"))
                .put("/customers/" + customer).then().statusCode(200).body("outcome", equalTo("applied"));
        String order = "O" + Ids.newId();
        String date = String.format("20%02d-%02d-%02d", ThreadLocalRandom.current().nextInt(40, 99),
                ThreadLocalRandom.current().nextInt(1, 13), ThreadLocalRandom.current().nextInt(1, 29));
        as(clerk).header("Prefer", "wait=5")
                .body(Map.of("orderId", order, "placedAt", date + "T10:00:00Z", "total", "4.20"))
                .post("/customers/" + customer + "/orders").then().statusCode(200)
                .body("outcome", equalTo("applied"));
        given().get("/orders/" + order).then().statusCode(200).body("customerId", equalTo(customer));
        given().queryParam("date", date).get("/orders").then().statusCode(200).body("items.id", hasItem(order));
    }

    /**
     * A comment written just before its author's rename, while the index lags: the rename's walk over the author's
     * comments (GSI2) cannot see the comment yet, and the comment's second look at the profile, made as soon as its
     * batch ended, came before the rename was recorded, so the comment kept the old name for good. The look now waits
     * until the comment's index entry shows.
     */
    @Test
    void aCommentWrittenJustBeforeItsAuthorsRenameTakesTheNewName() {
        String author = newUserId();
        register(author, "Old Name");
        String postId = createPost(author, "Renamed while lagging");
        String commentId = as(author).body(Map.of("text", "Written before the rename"))
                .post("/posts/" + postId + "/comments").then().statusCode(202).extract().path("id");
        as(author).body(Map.of("name", "New Name")).patch("/users/" + author).then().statusCode(202);
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> given().get("/posts/" + postId + "/comments")
                .then().statusCode(200)
                .body("items.find { it.id == '" + commentId + "' }.authorName", equalTo("New Name")));
    }

    @Test
    void aConsistencyTokenReadOfTheFeedShowsTheEditItNames() {
        String author = newUserId();
        register(author, "Lagging Editor");
        String postId = createPost(author, "Before the edit");
        as(author).header("Prefer", "wait=5").post("/posts/" + postId + "/publish").then().statusCode(200);
        String token = as(author).body(Map.of("title", "After the edit")).patch("/posts/" + postId).then()
                .statusCode(202).extract().path("position");
        given().header("Consistency-Token", token).queryParam("status", "published").get("/posts").then()
                .statusCode(200).body("items.find { it.id == '" + postId + "' }.title", equalTo("After the edit"));
    }
}
