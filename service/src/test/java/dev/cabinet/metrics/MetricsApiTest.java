package dev.cabinet.metrics;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.allPages;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.newUserId;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.Topics;
import dev.cabinet.table.TableWriter;
import dev.cabinet.support.ForeignProducer;
import dev.cabinet.shared.Ids;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.Shards;
import io.quarkus.test.junit.QuarkusTest;

/** Pattern 13: samples written across shards, read back by time range, merged in time order. */
@QuarkusTest
class MetricsApiTest {

    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    @Inject
    MetricsConfig config;

    @Inject
    TableWriter store;

    @Test
    void aBatchOfSamplesIsReadBackByTimeRangeWithInclusiveEndsAcrossShards() {
        String resource = "r" + Ids.newId();
        List<Map<String, Object>> samples = new ArrayList<>();
        for (int minute = 0; minute < 12; minute++) {
            samples.add(sample(minute, 10 + minute, 50.5, minute * 100L));
        }
        as(newUserId()).body(samples).post("/metrics/" + resource).then().statusCode(202)
                .body("type", equalTo("cabinet.metrics.recorded.v1"));
        Set<Integer> shards = samples.stream().map(s -> Shards.of(ts(s), config.shards()))
                .collect(Collectors.toSet());
        assertTrue(shards.size() > 1, "the samples should spread over several shards: " + shards);

        String all = "/metrics/" + resource + "?from=" + at(0) + "&to=" + at(11);
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> assertEquals(12, allPages(all, 100).size()));
        List<Object> expected = samples.stream().map(s -> (Object) ts(s)).toList();
        assertEquals(expected, allPages(all, 5, "timestamp"), "every sample once, oldest first, page by page");

        assertEquals(expected.subList(3, 8), allPages("/metrics/" + resource + "?from=" + at(3) + "&to=" + at(7), 2,
                "timestamp"), "both ends are inclusive");
        assertEquals(List.of(), allPages("/metrics/" + resource + "?from=2026-03-01T10:03:30Z&to=2026-03-01T10:03:40Z",
                10), "a range between samples is empty");
        assertEquals(List.of(), allPages("/metrics/" + resource + "?from=" + at(20) + "&to=" + at(30), 10));
        given().get("/metrics/" + resource + "?from=" + at(5) + "&to=" + at(5)).then().statusCode(200)
                .body("items", hasSize(1))
                .body("items[0].cpu", equalTo(15.0f))
                .body("items[0].memory", equalTo(50.5f))
                .body("items[0].requests", equalTo(500));
    }

    @Test
    void oneSampleIsAcceptedAndCarriesItsExpiry() {
        String resource = "r" + Ids.newId();
        as(newUserId()).body(sample(0, 1.5, 2.5, 3)).post("/metrics/" + resource).then().statusCode(202);
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given()
                .get("/metrics/" + resource + "?from=" + at(0) + "&to=" + at(0)).then().body("items", hasSize(1)));
        String timestamp = "2026-03-01T10:00:00.000Z";
        var item = store.read(MetricsKeys.sample(resource, timestamp, config.shards())).await().indefinitely()
                .orElseThrow();
        assertEquals(T0.plus(config.retention()).getEpochSecond(), Long.parseLong(item.get(KeyPlan.TTL_ATTRIBUTE).n()));
    }

    @Test
    void aValueTooSmallForTheStoreIsStoredAsZeroAndTheResourceGoesOn() {
        // DynamoDB refuses a number below 1e-130 (dynalite alike): written as it is, the event was dead-lettered and
        // every later sample of the resource parked behind it.
        String resource = "r" + Ids.newId();
        as(newUserId()).body(List.of(sample(0, 1e-200, 5e-324, 1), sample(1, 2.5, 1e-130, 2)))
                .post("/metrics/" + resource).then().statusCode(202);
        as(newUserId()).body(sample(2, 3.5, 4.5, 3)).post("/metrics/" + resource).then().statusCode(202);
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given()
                .get("/metrics/" + resource + "?from=" + at(0) + "&to=" + at(2)).then().statusCode(200)
                .body("items", hasSize(3))
                .body("items[0].cpu", equalTo(0.0f))
                .body("items[0].memory", equalTo(0.0f))
                .body("items[1].cpu", equalTo(2.5f))
                .body("items[2].cpu", equalTo(3.5f)));
    }

    @Test
    void samplesFromAnotherServiceWrittenStraightIntoKafkaAreReadBack() throws Exception {
        String resource = "r" + Ids.newId();
        ForeignProducer.produce(Topics.METRICS, resource, "ext-" + Ids.newId(), "cabinet.metrics.recorded.v1",
                "{\"resourceId\":\"" + resource + "\",\"samples\":["
                        + "{\"timestamp\":\"2026-03-01T10:00:00.000Z\",\"cpu\":45.2,\"memory\":67.8,\"requests\":1234},"
                        + "{\"timestamp\":\"2026-03-01T10:01:00.000Z\",\"cpu\":46.0,\"memory\":68.1,\"requests\":1300}]}");
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given()
                .get("/metrics/" + resource + "?from=2026-03-01T00:00:00Z&to=2026-03-02T00:00:00Z").then()
                .body("items", hasSize(2))
                .body("items[0].cpu", equalTo(45.2f))
                .body("items[1].requests", equalTo(1300)));
    }

    @Test
    void badSamplesAndRangesAreRefused() {
        String resource = "r" + Ids.newId();
        String user = newUserId();
        as(user).body(sample(0, 101, 1, 1)).post("/metrics/" + resource).then().statusCode(400)
                .contentType("application/problem+json");
        as(user).body(Map.of("cpu", 1, "memory", 1, "requests", 1)).post("/metrics/" + resource).then().statusCode(400);
        as(user).body(Map.of("timestamp", "yesterday", "cpu", 1, "memory", 1, "requests", 1)).post("/metrics/" + resource)
                .then().statusCode(400).body("errors.field", hasItem("timestamp"));
        as(user).body(List.of()).post("/metrics/" + resource).then().statusCode(400);
        List<Map<String, Object>> tooMany = new ArrayList<>();
        for (int i = 0; i < 501; i++) {
            tooMany.add(sample(i, 1, 1, 1));
        }
        as(user).body(tooMany).post("/metrics/" + resource).then().statusCode(400);
        as(user).body("[{\"timestamp\":\"2026-03-01T10:00:00Z\",\"cpu\":1,\"memory\":1,\"requests\":1,\"disk\":3}]")
                .post("/metrics/" + resource).then().statusCode(400);
        given().contentType("application/json").body(sample(0, 1, 1, 1)).post("/metrics/" + resource).then()
                .statusCode(401);
        given().get("/metrics/" + resource + "?from=" + at(5) + "&to=" + at(1)).then().statusCode(400)
                .body("errors.field", hasItem("to"));
        given().get("/metrics/" + resource + "?to=" + at(1)).then().statusCode(400).body("errors.field", hasItem("from"));
        given().get("/metrics/" + resource + "?from=soon&to=" + at(1)).then().statusCode(400);
        // A range within one millisecond holds no millisecond key: an empty page, not a refusal.
        String within = "2026-06-01T12:00:00.0005Z";
        given().get("/metrics/" + resource + "?from=" + within + "&to=" + within).then().statusCode(200)
                .body("items", hasSize(0));
    }

    private static Map<String, Object> sample(int minute, double cpu, double memory, long requests) {
        return Map.of("timestamp", at(minute), "cpu", cpu, "memory", memory, "requests", requests);
    }

    private static String at(int minute) {
        return T0.plus(Duration.ofMinutes(minute)).toString();
    }

    /** The timestamp as stored: fixed-width milliseconds. */
    private static String ts(Map<String, Object> sample) {
        return Instant.parse((String) sample.get("timestamp")).toString().replace("Z", ".000Z");
    }
}
