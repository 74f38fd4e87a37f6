package dev.cabinet.projection.observability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.junit.jupiter.api.Test;

import dev.cabinet.projection.ordering.ProjectionConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Readiness goes DOWN, naming the partition, while the engine has had a batch in flight longer than stuck-after, and
 * UP again once it has finished: the check over a lag whose batches in flight and clock the test sets, with the
 * application's configuration (stuck-after's default, 60 s).
 */
@QuarkusTest
class StuckProjectorTest {

    private static final Instant NOW = Instant.parse("2026-06-01T10:00:00.000Z");

    @Inject
    ProjectionConfig config;

    @Test
    void readinessIsDownWhileAPartitionIsStuckAndUpAgainOnceItMoves() {
        TopicPartition partition = new TopicPartition("cabinet.users", 99);
        Map<TopicPartition, BatchesInFlight.Batch> inFlight = new HashMap<>();
        ProjectionLag lag = new ProjectionLag(new SimpleMeterRegistry(), null, Clock.fixed(NOW, ZoneOffset.UTC));
        lag.trackedBy(() -> Map.copyOf(inFlight));
        ProjectorHealthCheck readiness = new ProjectorHealthCheck(lag, config);
        lag.started(new ConsumerRecords<>(Map.of(partition, List.of(new ConsumerRecord<>("cabinet.users", 99, 7, "k",
                new byte[0]))), Map.of()));

        inFlight.put(partition, new BatchesInFlight.Batch(NOW.minus(config.stuckAfter()), NOW.minusSeconds(90)));
        assertEquals(HealthCheckResponse.Status.UP, readiness.call().getStatus(), "in flight just stuck-after long");

        inFlight.put(partition, new BatchesInFlight.Batch(NOW.minus(config.stuckAfter()).minusSeconds(1),
                NOW.minusSeconds(90)));
        HealthCheckResponse stuck = readiness.call();
        assertEquals(HealthCheckResponse.Status.DOWN, stuck.getStatus());
        String reason = String.valueOf(stuck.getData().orElseThrow().get("reason"));
        assertTrue(reason.contains("cabinet.users-99 has not advanced for 61 s"), reason);
        assertTrue(reason.contains("its oldest unprojected event is 90 s old"), reason);

        inFlight.clear();
        assertEquals(HealthCheckResponse.Status.UP, readiness.call().getStatus(), "the batch finished");
    }
}
