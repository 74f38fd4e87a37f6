package dev.cabinet.erasure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.cabinet.shared.Ids;
import dev.cabinet.table.ActiveTable;
import dev.cabinet.table.KeyPlan;
import io.quarkus.test.junit.QuarkusTest;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** A person's data key, over the real table: what an instance keeps in memory after it erased them. */
@QuarkusTest
class DataKeysTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Inject
    DataKeys keys;

    @Inject
    DynamoDbAsyncClient dynamo;

    @Inject
    ActiveTable tables;

    /**
     * An opening whose read of the key item was answered before the erasure destroyed the key, and whose unwrapping
     * ends after it, uses the key for that call but does not keep it: the instance's next opening reads the erasure.
     * (The read answered before is made here by putting the item back as it was, then the erased one again.)
     */
    @Test
    void aKeyUnwrappedAfterItsErasureIsUsedOnceAndNotKept() {
        String subject = "u" + Ids.newId();
        keys.forSealing(subject).await().atMost(WAIT);
        Map<String, AttributeValue> before = item(subject);

        keys.destroy(subject, "2026-12-07T00:00:00.000Z").await().atMost(WAIT);
        Map<String, AttributeValue> erased = item(subject);
        put(before);
        assertTrue(keys.forOpening(Set.of(subject)).await().atMost(WAIT).get(subject).isPresent(),
                "the opening that read the key before its erasure");
        put(erased);

        assertTrue(keys.forOpening(Set.of(subject)).await().atMost(WAIT).get(subject).isEmpty(),
                "the next opening on this instance");
        assertEquals(Boolean.TRUE, keys.isErased(subject).await().atMost(WAIT));
    }

    private Map<String, AttributeValue> item(String subject) {
        return dynamo.getItem(b -> b.tableName(tables.home()).key(KeyPlan.SUBJECT_KEY.key(subject).toAttributes())
                .consistentRead(true)).join().item();
    }

    private void put(Map<String, AttributeValue> item) {
        dynamo.putItem(b -> b.tableName(tables.home()).item(item)).join();
    }
}
