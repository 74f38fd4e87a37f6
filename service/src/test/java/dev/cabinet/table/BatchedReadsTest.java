package dev.cabinet.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.cabinet.shared.Ids;
import io.quarkus.test.junit.QuarkusTest;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The executor's first round, read in one BatchGetItem: every key answered in the order asked, absent ones empty. */
@QuarkusTest
class BatchedReadsTest {

    @Inject
    TableWriter store;

    @Test
    void eachKeyIsAnsweredInTheOrderAskedAbsentOnesEmptyRepeatsRepeated() {
        String run = Ids.newId();
        Key first = write(new Key("TEST#" + run, "A"), "first");
        Key second = write(new Key("TEST#" + run, "B"), "second");
        Key absent = new Key("TEST#" + run, "NONE");

        List<Optional<Map<String, AttributeValue>>> found = store.readAll(List.of(second, absent, first, second))
                .await().indefinitely();

        assertEquals(4, found.size());
        assertEquals("second", found.get(0).orElseThrow().get("label").s());
        assertTrue(found.get(1).isEmpty(), "an absent item reads as empty");
        assertEquals("first", found.get(2).orElseThrow().get("label").s());
        assertEquals("second", found.get(3).orElseThrow().get("label").s());
    }

    @Test
    void moreKeysThanOneBatchHoldsAreAllRead() {
        String run = Ids.newId();
        List<Key> keys = new ArrayList<>();
        IntStream.range(0, 130).forEach(i -> keys.add(write(new Key("TEST#" + run, "I#" + i), "item " + i)));

        List<Optional<Map<String, AttributeValue>>> found = store.readAll(keys).await().indefinitely();

        for (int i = 0; i < keys.size(); i++) {
            assertEquals("item " + i, found.get(i).orElseThrow().get("label").s());
        }
    }

    @Test
    void noKeysAndOneKeyNeedNoBatch() {
        String run = Ids.newId();
        Key only = write(new Key("TEST#" + run, "ONLY"), "only");

        assertTrue(store.readAll(List.of()).await().indefinitely().isEmpty());
        assertEquals("only", store.readAll(List.of(only)).await().indefinitely().get(0).orElseThrow().get("label").s());
    }

    private Key write(Key key, String label) {
        store.update(ItemUpdate.of(key).set("label", label)).await().indefinitely();
        return key;
    }
}
