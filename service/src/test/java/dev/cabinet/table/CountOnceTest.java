package dev.cabinet.table;

import dev.cabinet.table.ItemUpdate;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.cabinet.shared.Ids;
import dev.cabinet.table.Key;
import io.quarkus.test.junit.QuarkusTest;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

@QuarkusTest
class CountOnceTest {

    @Inject
    TableWriter store;

    @Test
    void aCounterChangeAppliedTwiceCountsOnce() {
        CounterChange change = newChange();
        store.countOnce(change).await().indefinitely();
        store.countOnce(change).await().indefinitely();
        assertEquals("1", counter(change).get("postCount").n());
        assertFalse(counter(change).containsKey(TableWriter.PENDING_COUNTS));
    }

    @Test
    void theChangeAnswersTheCounterItAppliedAndTheRepeatAnswersNothing() {
        CounterChange change = newChange();
        var markerNow = store.updateAndGet(ItemUpdate.of(change.marker()).set("seen", true)).await().indefinitely();

        var counted = store.countOnce(change, markerNow).await().indefinitely();
        var again = store.countOnce(change, store.read(change.marker()).await().indefinitely()).await().indefinitely();

        assertEquals("1", counted.orElseThrow().get("postCount").n());
        assertTrue(again.isEmpty(), "a change already counted changes nothing and answers nothing");
        assertEquals("1", counter(change).get("postCount").n());
        assertFalse(counter(change).containsKey(TableWriter.PENDING_COUNTS));
    }

    @Test
    void aCrashAfterTheCounterChangedIsRepairedWithoutCountingAgain() {
        CounterChange change = newChange();
        // What step 2 leaves behind when the process dies right after it: the change made, the token pending.
        store.update(ItemUpdate.of(change.counter()).increment("postCount", 1)
                .addToSet(TableWriter.PENDING_COUNTS, change.token())).await().indefinitely();

        store.countOnce(change).await().indefinitely();

        Map<String, AttributeValue> counter = counter(change);
        assertEquals("1", counter.get("postCount").n());
        assertFalse(counter.containsKey(TableWriter.PENDING_COUNTS));
        assertEquals(true, store.read(change.marker()).await().indefinitely().orElseThrow().get("counted").bool());
    }

    @Test
    void aMarkerThatWasNeverWrittenCountsNothing() {
        CounterChange change = newChange();
        CounterChange withoutMarker = new CounterChange(change.counter(), "UserProfile", "postCount", 1,
                new Key("TEST#" + Ids.newId(), "CHILD"), "counted", change.token());
        store.countOnce(withoutMarker).await().indefinitely();
        assertEquals(true, store.read(change.counter()).await().indefinitely().isEmpty());
    }

    private CounterChange newChange() {
        Key counter = new Key("TEST#" + Ids.newId(), "PROFILE");
        Key marker = new Key(counter.pk(), "CHILD#" + Ids.newId());
        store.update(ItemUpdate.of(marker, "TestChild")).await().indefinitely();
        return new CounterChange(counter, "UserProfile", "postCount", 1, marker, "counted", Ids.newId());
    }

    private Map<String, AttributeValue> counter(CounterChange change) {
        return store.read(change.counter()).await().indefinitely().orElseThrow();
    }
}
