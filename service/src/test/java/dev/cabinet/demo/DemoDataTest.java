package dev.cabinet.demo;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.hasSize;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.cabinet.support.ProjectorLag;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The seeds' examples reach an empty table through the log, as dev mode loads them at start
 * ({@code cabinet.demo-data.enabled}, off in tests): the test sends them itself, so that it shares the suite's one
 * application instead of booting one with that setting.
 */
@QuarkusTest
class DemoDataTest {

    @Inject
    DemoData demo;

    @Test
    void theSeedsExamplesAreThereForTheFirstCurl() {
        demo.loadIfAbsent().await().atMost(PROJECTION_WAIT);
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> {
            given().get("/users/john").then().statusCode(200).body("name", equalTo("John")).body("postCount", equalTo(1));
            given().get("/posts/" + DemoData.POST_ID + "?include=comments").then().statusCode(200)
                    .body("authorName", equalTo("John"))
                    .body("status", equalTo("published"))
                    .body("commentCount", equalTo(2))
                    .body("likeCount", equalTo(2))
                    .body("comments.items.authorName", hasItems("Jane", "John"));
            given().get("/users/jane/likes").then().body("items[0].postId", equalTo(DemoData.POST_ID));
            given().get("/groups/developers/members").then().body("items.userName", hasItems("John", "Jane"));
            given().get("/users/jane/groups").then().body("items[0].groupName", equalTo("Developers"));
            given().get("/folders/reports").then().statusCode(200).body("path", equalTo("/Documents/Reports"));
            given().get("/folders/reports/files").then().body("items[0].name", equalTo("report.pdf"))
                    .body("items[0].status", equalTo("stored"));
            given().get("/customers/C001?include=orders").then().statusCode(200)
                    .body("orders.items.id", hasItems("O105", "O100"));
            given().get("/orders/O100").then().statusCode(200).body("customerId", equalTo("C001"));
            given().get("/customers/C002").then().statusCode(200);
            Instant now = Instant.now();
            given().queryParam("from", now.minus(2, ChronoUnit.HOURS).toString()).queryParam("to", now.toString())
                    .queryParam("limit", 100)
                    .get("/metrics/web-1").then().body("items", hasSize(60));
        });

        // Loaded a second time (a live reload before the first load's John was projected): nothing is doubled.
        demo.load().await().atMost(PROJECTION_WAIT);
        ProjectorLag.awaitCaughtUp(PROJECTION_WAIT);
        given().get("/posts/" + DemoData.POST_ID + "?include=comments").then().statusCode(200)
                .body("commentCount", equalTo(2)).body("likeCount", equalTo(2)).body("comments.items", hasSize(2));
        given().get("/users/john").then().body("postCount", equalTo(1));
        given().get("/groups/developers").then().body("memberCount", equalTo(2));
        given().get("/folders/reports/files").then().body("items", hasSize(1))
                .body("items[0].status", equalTo("stored"));
        given().get("/customers/C001?include=orders").then().body("orders.items", hasSize(2));
    }
}
