package dev.cabinet.table;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.createPost;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.publish;
import static dev.cabinet.support.Api.register;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.cabinet.devservices.launcher.StoreHooks;
import dev.cabinet.support.Concurrently;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Issue 38, item 2: against a store that refuses a key past 5 writes a second (dynalite's throttle knob), as DynamoDB
 * refuses a hot partition, counts stay exact: the SDK and the projector retry with backoff and jitter, in each key's
 * order. A throttled read answers 503 with Retry-After, and every throttle is counted by operation.
 */
@QuarkusTest
class ThrottleTest {

    /** Above what each of a post's 8 like counter shards takes in the burst below, below what one edited post takes. */
    private static final int WRITES_PER_SECOND = 5;

    @Inject
    MeterRegistry registry;

    private static StoreHooks hooks() {
        return new StoreHooks(ConfigProvider.getConfig().getValue("quarkus.dynamodb.endpoint-override", String.class));
    }

    @AfterEach
    void noKeyIsThrottled() {
        hooks().noThrottle();
    }

    private double throttles(String operation) {
        return registry.find(StoreCallMeter.THROTTLES).tag("operation", operation).counters().stream()
                .mapToDouble(Counter::count).sum();
    }

    @Test
    void aBurstOfLikesOnOnePostIsCountedExactlyWhileItsPostIsThrottled() {
        String author = newUserId();
        register(author, "Throttled Author");
        String post = createPost(author, "Liked in a burst");
        publish(author, post);
        List<String> likers = IntStream.range(0, 32).mapToObj(i -> newUserId()).toList();
        Concurrently.map(likers, liker -> {
            register(liker, "Liker");
            return liker;
        });
        hooks().throttle(WRITES_PER_SECOND, null, "POST#" + post);

        Concurrently.map(likers, liker -> as(liker).put("/posts/" + post + "/likes").then().statusCode(202)
                .extract().path("position"));
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().get("/posts/" + post).then().statusCode(200)
                .body("likeCount", equalTo(likers.size())));
    }

    @Test
    void anUnshardedItemPastItsKeysRateIsThrottledAndStillConverges() {
        String author = newUserId();
        register(author, "Busy Editor");
        String post = createPost(author, "Edited in a burst");
        double before = throttles("UpdateItem");
        hooks().throttle(WRITES_PER_SECOND, null, "POST#" + post);

        // Ten edits of one post, one stream: ten writes of its one item in a row, twice what the key takes a second.
        for (int i = 0; i < 10; i++) {
            as(author).body(Map.of("title", "Edit " + i)).patch("/posts/" + post).then().statusCode(202);
        }
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().get("/posts/" + post).then().statusCode(200)
                .body("title", equalTo("Edit 9")));
        assertTrue(throttles("UpdateItem") > before, "the post's item was throttled on the way");
    }

    @Test
    void aThrottledReadAnswers503WithRetryAfterAndIsCounted() {
        String user = newUserId();
        register(user, "Hot Profile");
        double before = throttles("GetItem");
        hooks().throttle(null, 0, "USER#" + user);

        given().get("/users/" + user).then().statusCode(503).header("Retry-After", notNullValue());
        assertTrue(throttles("GetItem") > before, "the refused reads are counted");

        hooks().noThrottle();
        given().get("/users/" + user).then().statusCode(200).body("name", equalTo("Hot Profile"));
    }
}
