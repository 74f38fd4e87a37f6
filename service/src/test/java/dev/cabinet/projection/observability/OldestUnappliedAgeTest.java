package dev.cabinet.projection.observability;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;

import org.junit.jupiter.api.Test;

/** The time lag of a partition: the age of its oldest event not applied yet, in each state a partition is in. */
class OldestUnappliedAgeTest {

    private static final Instant NOW = Instant.parse("2026-06-01T10:00:10.000Z");
    private static final Instant LAST_APPLIED = Instant.parse("2026-06-01T10:00:04.000Z");

    @Test
    void aBatchInFlightIsAsOldAsItsOldestEvent() {
        BatchesInFlight.Batch batch = new BatchesInFlight.Batch(NOW.minusSeconds(1),
                Instant.parse("2026-06-01T10:00:07.500Z"));
        assertEquals(2.5, ProjectionLag.oldestUnappliedAge(batch, 40, LAST_APPLIED, NOW));
    }

    @Test
    void eventsWaitingInTheLogWithNoBatchInFlightAreAtMostAsOldAsTheLastOneApplied() {
        assertEquals(6.0, ProjectionLag.oldestUnappliedAge(null, 40, LAST_APPLIED, NOW),
                "not 0: events wait, queued behind the events-in-flight bound or not fetched yet");
    }

    @Test
    void aCaughtUpPartitionIsNotBehind() {
        assertEquals(0.0, ProjectionLag.oldestUnappliedAge(null, 0, LAST_APPLIED, NOW));
        assertEquals(0.0, ProjectionLag.oldestUnappliedAge(null, 40, null, NOW), "nothing applied here yet to date it");
    }

    @Test
    void aClockBehindTheBrokersNeverMakesItNegative() {
        BatchesInFlight.Batch batch = new BatchesInFlight.Batch(NOW, NOW.plusSeconds(3));
        assertEquals(0.0, ProjectionLag.oldestUnappliedAge(batch, 1, LAST_APPLIED, NOW));
    }
}
