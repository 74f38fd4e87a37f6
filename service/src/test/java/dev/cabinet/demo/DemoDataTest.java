package dev.cabinet.demo;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.hasSize;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/** With demo data on (as in dev mode), an empty table gets the seeds' examples through the log. */
@QuarkusTest
@TestProfile(DemoDataTest.DemoDataOn.class)
class DemoDataTest {

    /** Dev mode's setting, in a test. */
    public static class DemoDataOn implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("cabinet.demo-data.enabled", "true");
        }
    }

    @Test
    void theSeedsExamplesAreThereForTheFirstCurl() {
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
    }
}
