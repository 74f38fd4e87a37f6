package dev.cabinet.projection.failure;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.register;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;

import dev.cabinet.shared.Ids;
import dev.cabinet.support.Freezer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/**
 * The store frozen (SIGSTOP) for a moment: reads, and commands that must read first, answer 503 with Retry-After
 * instead of hanging (each store call gives up after quarkus.dynamodb.api-call-timeout), commands that need no read are
 * still accepted, and once it thaws the projector catches up and new commands become visible. How long that took is logged
 * (no timing is asserted here); {@code -Dcabinet.test.store-pause=12s} lengthens the pause to measure a longer outage.
 */
@QuarkusTest
class StoreOutageTest {

    private static final Logger LOG = Logger.getLogger(StoreOutageTest.class);
    private static final ExecutorService CALLER = Executors.newSingleThreadExecutor();
    private static final Duration PAUSE = Duration.parse("PT" + System.getProperty("cabinet.test.store-pause", "3s"));

    @Test
    void aFrozenStoreAnswers503ToReadsAndToCommandsThatReadAndTheProjectorCatchesUpOnceItThaws() {
        String user = newUserId();
        register(user, "Before");
        String resource = "r" + Ids.newId();
        long thawedAt;
        try (Freezer store = Freezer.store()) {
            long frozenAt = System.nanoTime();
            // A command that must read first (is its author registered?) is refused like a read, at the same time.
            CompletableFuture<Response> command = CompletableFuture.supplyAsync(() -> as(user)
                    .body(Map.of("title", "Frozen", "body", "b")).post("/posts"), CALLER);
            given().get("/users/" + user).then().statusCode(503)
                    .contentType("application/problem+json")
                    .header("Retry-After", equalTo("5"))
                    .body("type", equalTo("urn:cabinet:problem:store-unavailable"));
            command.join().then().statusCode(503)
                    .header("Retry-After", equalTo("5"))
                    .body("type", equalTo("urn:cabinet:problem:store-unavailable"));
            // Appended without a read: the projector's writes of it fail and are retried while the store is frozen.
            as(user).body(Map.of("timestamp", "2026-03-01T10:00:00Z", "cpu", 1.5, "memory", 2.5, "requests", 3))
                    .post("/metrics/" + resource).then().statusCode(202);
            await().pollDelay(Duration.ZERO).atMost(PAUSE.plusSeconds(30))
                    .until(() -> System.nanoTime() - frozenAt >= PAUSE.toNanos());
            store.thaw();
            thawedAt = System.nanoTime();
        }
        String newcomer = newUserId();
        as(newcomer).body(Map.of("name", "After", "email", newcomer + "@example.com")).put("/users/" + newcomer)
                .then().statusCode(202);
        await().atMost(PROJECTION_WAIT).until(() -> given().get("/users/" + newcomer).statusCode() == 200);
        long newCommandVisible = System.nanoTime();
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given()
                .get("/metrics/" + resource + "?from=2026-03-01T00:00:00Z&to=2026-03-02T00:00:00Z").then()
                .statusCode(200).body("items", hasSize(1)));
        LOG.infof("Store paused %d ms: a command sent after the thaw was visible %d ms after it, the backlog %d ms after it",
                PAUSE.toMillis(), (newCommandVisible - thawedAt) / 1_000_000, (System.nanoTime() - thawedAt) / 1_000_000);
    }
}
