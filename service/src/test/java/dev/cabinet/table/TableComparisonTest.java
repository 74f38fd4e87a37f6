package dev.cabinet.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Instant;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** What a rebuild's verification calls a difference between the live table's item and the candidate's. */
class TableComparisonTest {

    private static final Instant NOW = Instant.parse("2026-12-07T12:00:00Z");
    private static final Key SAMPLE = new Key("METRIC#web-1#0", "TS#2026-10-01T00:00:00.000Z");

    @Test
    void aSamplePastItsTimeToLiveInOneTableOnlyIsNoDifference() {
        // The live table's copy was deleted by DynamoDB's expiry long ago; the rebuild wrote the sample again.
        assertNull(TableComparison.diff(null, sample(NOW.minusSeconds(86_400), "0.5"), SAMPLE, NOW));
        // Each table's expiry runs on its own clock: the candidate's copy may go first.
        assertNull(TableComparison.diff(sample(NOW.minusSeconds(1), "0.5"), null, SAMPLE, NOW));
        assertNull(TableComparison.diff(sample(NOW, "0.5"), sample(NOW, "0.7"), SAMPLE, NOW));
    }

    @Test
    void aSampleStillLivingIsComparedAsAnyItem() {
        assertEquals(new TableComparison.Difference(SAMPLE.pk(), SAMPLE.sk(), "missing-in-live", Set.of()),
                TableComparison.diff(null, sample(NOW.plusSeconds(60), "0.5"), SAMPLE, NOW));
        assertEquals(new TableComparison.Difference(SAMPLE.pk(), SAMPLE.sk(), "different", Set.of("cpu")),
                TableComparison.diff(sample(NOW.plusSeconds(60), "0.5"), sample(NOW.plusSeconds(60), "0.7"), SAMPLE,
                        NOW));
        assertNull(TableComparison.diff(sample(NOW.plusSeconds(60), "0.5"), sample(NOW.plusSeconds(60), "0.5"), SAMPLE,
                NOW));
    }

    private static Map<String, AttributeValue> sample(Instant expiresAt, String cpu) {
        return Map.of("pk", AttributeValue.fromS(SAMPLE.pk()), "sk", AttributeValue.fromS(SAMPLE.sk()),
                "type", AttributeValue.fromS("MetricSample"), "cpu", AttributeValue.fromN(cpu),
                KeyPlan.TTL_ATTRIBUTE, AttributeValue.fromN(Long.toString(expiresAt.getEpochSecond())));
    }
}
