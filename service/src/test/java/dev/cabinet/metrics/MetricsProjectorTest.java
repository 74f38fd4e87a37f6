package dev.cabinet.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.cabinet.metrics.MetricsEvent.MetricsRecorded;
import dev.cabinet.metrics.MetricsEvent.Sample;
import dev.cabinet.projection.Reads;
import dev.cabinet.projection.WritePlan;
import dev.cabinet.projection.WritePlan.Put;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The metrics projector's decisions: samples are facts, put whole, without a root. */
class MetricsProjectorTest {

    private static final MetricsProjector PROJECTOR = new MetricsProjector(new MetricsConfig() {
        @Override
        public int shards() {
            return 4;
        }

        @Override
        public Duration retention() {
            return Duration.ofDays(30);
        }
    });
    private static final Reads NOTHING = new Reads(Optional.empty(), Map.of());

    @Test
    void aSampleIsPutWholeInItsTimestampsShardWithItsExpiry() {
        MetricsRecorded recorded = new MetricsRecorded("web-1", List.of(
                new Sample("2026-06-01T10:00:00.000Z", 12.5, 40, 7)));
        assertTrue(PROJECTOR.target(recorded).isNone(), "no aggregate root records a fact");
        WritePlan plan = PROJECTOR.decide(recorded, NOTHING);
        assertNull(plan.root());
        assertEquals(List.of(new Put(Map.of(
                "pk", AttributeValue.fromS("METRICS#web-1#2"),
                "sk", AttributeValue.fromS("2026-06-01T10:00:00.000Z"),
                "type", AttributeValue.fromS("MetricSample"),
                "resourceId", AttributeValue.fromS("web-1"),
                "timestamp", AttributeValue.fromS("2026-06-01T10:00:00.000Z"),
                "cpu", AttributeValue.fromN("12.5"),
                "memory", AttributeValue.fromN("40.0"),
                "requests", AttributeValue.fromN("7"),
                "expiresAt", AttributeValue.fromN("1782900000")))), plan.steps());
    }

    @Test
    void aLaterSampleOfTheSameTimestampReplacesTheEarlierOne() {
        MetricsRecorded recorded = new MetricsRecorded("web-1", List.of(
                new Sample("2026-06-01T10:00:00.000Z", 1, 1, 1),
                new Sample("2026-06-01T10:01:00.000Z", 2, 2, 2),
                new Sample("2026-06-01T10:00:00.000Z", 3, 3, 3)));
        List<WritePlan.Step> steps = PROJECTOR.decide(recorded, NOTHING).steps();
        assertEquals(2, steps.size());
        Map<String, AttributeValue> first = ((Put) steps.get(0)).item();
        assertEquals("2026-06-01T10:00:00.000Z", first.get("sk").s());
        assertEquals("3", first.get("requests").n());
        assertEquals("METRICS#web-1#3", ((Put) steps.get(1)).item().get("pk").s());
    }
}
