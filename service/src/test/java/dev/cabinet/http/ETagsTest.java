package dev.cabinet.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.cabinet.table.OwnerFence;
import dev.cabinet.table.TableWriter;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** An entity tag follows what a reader sees of the item, not the exactly-once counting's bookkeeping on it. */
class ETagsTest {

    private static final Map<String, AttributeValue> PROFILE = Map.of(
            "pk", AttributeValue.fromS("USER#ada"), "sk", AttributeValue.fromS("PROFILE"),
            "name", AttributeValue.fromS("Ada"), "postCount", AttributeValue.fromN("3"),
            "userVersion", AttributeValue.fromN("17"));

    @Test
    void aTokenReleasedOrAnEpochRaisedLeavesTheTagAsItWas() {
        Map<String, AttributeValue> counting = new HashMap<>(PROFILE);
        counting.put(TableWriter.PENDING_COUNTS, AttributeValue.fromSs(List.of("01JTOKEN")));
        counting.put(new OwnerFence("cabinet.posts", 3, 2).attribute(), AttributeValue.fromN("2"));

        assertEquals(ETags.of(PROFILE), ETags.of(counting));
    }

    @Test
    void aCountOrAnyOtherAttributeThatChangesMakesANewTag() {
        Map<String, AttributeValue> counted = new HashMap<>(PROFILE);
        counted.put("postCount", AttributeValue.fromN("4"));
        Map<String, AttributeValue> renamed = new HashMap<>(PROFILE);
        renamed.put("name", AttributeValue.fromS("Ada King"));

        assertNotEquals(ETags.of(PROFILE), ETags.of(counted));
        assertNotEquals(ETags.of(PROFILE), ETags.of(renamed));
    }
}
