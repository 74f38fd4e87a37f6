package dev.cabinet.table;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.cabinet.shared.Ids;
import dev.cabinet.table.OrderIdReservations.Placement;
import dev.cabinet.table.OrderIdReservations.Reserving;
import io.quarkus.test.junit.QuarkusTest;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

/**
 * The order id reservation against the store: one placement holds an id, its retries find it, and only the request
 * that made it may free it (a retry's attempt may follow one whose event is in the log).
 */
@QuarkusTest
class OrderIdReservationsTest {

    private static final Duration CALL = Duration.ofSeconds(10);

    @Inject
    OrderIdReservations reservations;

    @Inject
    DynamoDbAsyncClient dynamo;

    @Inject
    TableConfig table;

    @Test
    void anIdIsHeldByOnePlacementAndFreedOnlyByTheRequestThatReservedIt() {
        String orderId = "O" + Ids.newId();
        Placement placement = new Placement(orderId, "C1", "2026-09-01T10:00:00.000Z", "3.00");
        Reserving first = Reserving.of(placement);
        Reserving retry = Reserving.of(placement);
        Reserving other = Reserving.of(new Placement(orderId, "C2", "2026-09-01T10:00:00.000Z", "3.00"));

        assertTrue(reserve(first));
        assertTrue(reserve(retry), "the same placement again finds its own reservation");
        assertFalse(reserve(other), "another customer's placement of the id");
        assertFalse(reserve(Reserving.of(new Placement(orderId, "C1", "2026-09-02T10:00:00.000Z", "3.00"))),
                "the same customer's other placement of the id");

        reservations.release(retry).await().atMost(CALL);
        assertFalse(reserve(other), "a retry's release leaves the first attempt's reservation");
        reservations.release(first).await().atMost(CALL);
        assertTrue(reserve(other), "the request that reserved the id freed it");
    }

    @Test
    void aReservationPastItsTimeToLiveIsVoidBeforeTheStoreDeletesIt() {
        String orderId = "O" + Ids.newId();
        Placement placement = new Placement(orderId, "C1", "2026-09-01T10:00:00.000Z", "3.00");
        assertTrue(reserve(Reserving.of(placement)));
        dynamo.updateItem(ItemUpdate.of(KeyPlan.ORDER_ID_RESERVATION.key(orderId))
                .set(KeyPlan.TTL_ATTRIBUTE, Instant.now().minusSeconds(60).getEpochSecond()).toRequest(table.name()))
                .join();
        Reserving takeover = Reserving.of(new Placement(orderId, "C2", "2026-09-01T10:00:00.000Z", "3.00"));
        assertTrue(reserve(takeover));
        assertFalse(reserve(Reserving.of(placement)), "the void reservation's placement no longer holds the id");
        reservations.release(takeover).await().atMost(CALL);
        assertTrue(reserve(Reserving.of(new Placement(orderId, "C3", "2026-09-01T10:00:00.000Z", "3.00"))),
                "the request that took the id over freed it");
    }

    private boolean reserve(Reserving reserving) {
        return reservations.reserve(reserving).await().atMost(CALL);
    }
}
