package dev.cabinet.projection.observability;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import dev.cabinet.projection.ProjectionConfig;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Readiness goes DOWN, naming the partition, while a batch is in flight longer than stuck-after, and comes back. The
 * batch is handed over as begun longer ago than stuck-after (its default, 60 s), so the suite's one application serves.
 */
@QuarkusTest
class StuckProjectorTest {

    @Inject
    ProjectionLag lag;

    @Inject
    ProjectionConfig config;

    @Test
    void readinessIsDownWhileAPartitionIsStuckAndUpAgainOnceItMoves() {
        TopicPartition partition = new TopicPartition("cabinet.users", 99);
        ConsumerRecords<String, byte[]> batch = new ConsumerRecords<>(Map.of(partition,
                List.of(new ConsumerRecord<>("cabinet.users", 99, 7, "k", new byte[0]))), Map.of());
        given().get("/q/health/ready").then().statusCode(200);

        lag.started(batch, Instant.now().minus(config.stuckAfter()).minusSeconds(1));
        try {
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> given().get("/q/health/ready").then()
                    .statusCode(503)
                    .body("checks.find { it.name == 'projector' }.status", equalTo("DOWN"))
                    .body("checks.find { it.name == 'projector' }.data.reason", containsString("cabinet.users-99")));
        } finally {
            // The suite's application goes on serving the other tests: the batch ends either way.
            lag.finished(batch);
        }
        given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
    }
}
