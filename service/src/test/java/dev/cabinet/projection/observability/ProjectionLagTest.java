package dev.cabinet.projection.observability;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.register;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

/**
 * The projection's meters per partition, the age of events when applied, the store latency as the projector sees it,
 * and Kafka's, on /q/metrics.
 */
@QuarkusTest
class ProjectionLagTest {

    @Test
    void eachPartitionReportsEventsAppliedItsTimeLagAndTheStoreLatency() {
        register(newUserId(), "Measured");
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> {
            String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
            assertTrue(metrics.lines().anyMatch(l -> l.startsWith("cabinet_projection_events_total{")
                    && l.contains("topic=\"cabinet.users\"") && !l.endsWith(" 0.0")), "events applied per partition");
            assertTrue(metrics.contains("cabinet_projection_time_lag_seconds{"), "time lag per partition");
            assertTrue(metrics.contains("cabinet_projection_applied_offset{"), "offset applied per partition");
            assertTrue(metrics.contains("cabinet_dynamodb_calls_seconds_count{operation=\"UpdateItem\",outcome=\"success\""),
                    "store latency by operation and outcome");
            assertTrue(metrics.lines().anyMatch(l -> l.startsWith("cabinet_dynamodb_calls_seconds_bucket{")
                    && l.contains("operation=\"UpdateItem\"") && l.contains("le=\"0.025\"")),
                    "a store latency bucket at a round's budget");
            assertTrue(metrics.lines().anyMatch(l -> l.startsWith("cabinet_projection_applied_seconds_bucket{")
                    && l.contains("le=\"0.1\"")), "buckets of one event's application");
            assertTrue(metrics.contains("cabinet_projection_offset_lag{"), "offset lag per partition");
            assertTrue(metrics.contains("kafka_consumer_fetch_manager_records_lag_max{"), "the Kafka client's own meters");
            assertTrue(metrics.lines().anyMatch(l -> l.startsWith("cabinet_projection_event_age_seconds_count ")
                    && !l.endsWith(" 0.0")), "how old events were when applied");
            assertTrue(metrics.contains("cabinet_projection_event_age_seconds_bucket{le=\"0.25\"}"),
                    "a bucket at the freshness target");
        });
    }
}
