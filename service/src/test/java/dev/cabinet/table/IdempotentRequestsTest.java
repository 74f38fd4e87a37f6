package dev.cabinet.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.cabinet.shared.Ids;
import dev.cabinet.table.IdempotentRequests.Reservation;
import io.quarkus.test.junit.QuarkusTest;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * An Idempotency-Key's item against the store: only the request holding the key settles it, and a key past its day
 * is reserved afresh though DynamoDB has not deleted it yet.
 */
@QuarkusTest
class IdempotentRequestsTest {

    private static final Duration CALL = Duration.ofSeconds(10);
    private static final Duration HOLD = Duration.ofSeconds(40);

    @Inject
    IdempotentRequests requests;

    @Inject
    DynamoDbAsyncClient dynamo;

    @Inject
    TableConfig table;

    @Test
    void aReleaseResentAfterTheKeyWasReservedAgainLeavesTheNewReservation() {
        String id = Ids.newId();
        Reservation first = reserve(id, "POST /posts a").orElseThrow();
        requests.release(id, first.holder()).await().atMost(CALL);
        Reservation corrected = reserve(id, "POST /posts b").orElseThrow();
        // The SDK resends the first release, whose answer it did not get.
        requests.release(id, first.holder()).await().atMost(CALL);
        assertTrue(reserve(id, "POST /posts b").isEmpty(), "the corrected request still holds the key");
        assertEquals(corrected.holder(), Items.string(find(id), "reservedBy"));
    }

    @Test
    void aRequestWhoseKeyWasTakenOverStoresNoAnswer() {
        String id = Ids.newId();
        Reservation first = reserve(id, "PUT /users/u").orElseThrow();
        requests.outcomeUnknown(id, first.holder()).await().atMost(CALL);
        Reservation retry = reserve(id, "PUT /users/u").orElseThrow();
        assertTrue(retry.takesOver());
        assertEquals(first.seed(), retry.seed(), "the retry makes the same ids");
        requests.complete(id, first.holder(), 202, "{\"late\":true}", null, null).await().atMost(CALL);
        assertFalse(IdempotentRequests.isDone(find(id)), "the first attempt's late answer is not the key's");
        requests.complete(id, retry.holder(), 202, "{\"retry\":true}", null, null).await().atMost(CALL);
        assertEquals("{\"retry\":true}", Items.string(find(id), "body"));
    }

    @Test
    void aKeyPastItsDayIsReservedAfreshWithNewIds() {
        String id = Ids.newId();
        Reservation first = reserve(id, "POST /posts a").orElseThrow();
        requests.complete(id, first.holder(), 202, "{\"id\":\"p1\"}", "/posts/p1", null).await().atMost(CALL);
        assertTrue(reserve(id, "POST /posts other").isEmpty(), "within its day the key is the first request's");
        dynamo.updateItem(ItemUpdate.of(IdempotentRequests.key(id))
                .set(KeyPlan.TTL_ATTRIBUTE, Instant.now().minusSeconds(60).getEpochSecond()).toRequest(table.name()))
                .join();
        Reservation again = reserve(id, "POST /posts other").orElseThrow(
                () -> new AssertionError("a key past its day is void until DynamoDB deletes it"));
        assertFalse(again.takesOver());
        assertNotEquals(first.seed(), again.seed(), "a new request makes ids of its own");
        Map<String, AttributeValue> item = find(id);
        assertFalse(IdempotentRequests.isDone(item));
        assertFalse(item.containsKey("body") || item.containsKey("location") || item.containsKey("status"), item::toString);
    }

    private Optional<Reservation> reserve(String id, String fingerprint) {
        return requests.reserve(id, fingerprint, HOLD).await().atMost(CALL).reserved();
    }

    private Map<String, AttributeValue> find(String id) {
        return requests.find(id).await().atMost(CALL).orElseThrow();
    }
}
