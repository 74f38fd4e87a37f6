package dev.cabinet.projection;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/** Readiness goes DOWN, naming the partition, while a batch is in flight longer than stuck-after, and comes back. */
@QuarkusTest
@TestProfile(StuckProjectorTest.ShortPatience.class)
class StuckProjectorTest {

    /** A projector that counts as stuck after one second. */
    public static class ShortPatience implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("cabinet.projection.stuck-after", "1s");
        }
    }

    @Inject
    ProjectionLag lag;

    @Test
    void readinessIsDownWhileAPartitionIsStuckAndUpAgainOnceItMoves() {
        TopicPartition partition = new TopicPartition("cabinet.users", 99);
        ConsumerRecords<String, byte[]> batch = new ConsumerRecords<>(Map.of(partition,
                List.of(new ConsumerRecord<>("cabinet.users", 99, 7, "k", new byte[0]))), Map.of());
        given().get("/q/health/ready").then().statusCode(200);

        lag.started(batch);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> given().get("/q/health/ready").then().statusCode(503)
                .body("checks.find { it.name == 'projector' }.status", equalTo("DOWN"))
                .body("checks.find { it.name == 'projector' }.data.reason", containsString("cabinet.users-99")));

        lag.finished(batch);
        given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
    }
}
