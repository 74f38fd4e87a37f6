package dev.cabinet.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.cabinet.table.Attributes;
import dev.cabinet.table.OwnerFence;
import dev.cabinet.table.TableWriter;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * An entity tag follows what a reader sees of the item (or of the items a page embeds), not the exactly-once counting's
 * bookkeeping on it.
 */
class ETagsTest {

    private static final Map<String, AttributeValue> PROFILE = Map.of(
            "pk", AttributeValue.fromS("USER#ada"), "sk", AttributeValue.fromS("PROFILE"),
            "name", AttributeValue.fromS("Ada"), "postCount", AttributeValue.fromN("3"),
            "userVersion", AttributeValue.fromN("17"));

    @Test
    void aTokenReleasedAnEpochRaisedOrStepsRecordedAgainLeaveTheTagAsItWas() {
        Map<String, AttributeValue> counting = new HashMap<>(PROFILE);
        counting.put(TableWriter.PENDING_COUNTS, AttributeValue.fromSs(List.of("01JTOKEN")));
        counting.put(new OwnerFence("cabinet.posts", 3, 2).attribute(), AttributeValue.fromN("2"));
        counting.put(Attributes.PENDING_STEPS, AttributeValue.fromB(SdkBytes.fromUtf8String("steps")));

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

    /** A page's tag follows every item shown, their order and how many; the item's own tag is another. */
    @Test
    void aRepresentationOfSeveralItemsHasATagOverAllOfThem() {
        Map<String, AttributeValue> comment = Map.of("pk", AttributeValue.fromS("POST#p"),
                "sk", AttributeValue.fromS("COMMENT#1"), "authorName", AttributeValue.fromS("Ada"));
        Map<String, AttributeValue> renamed = new HashMap<>(comment);
        renamed.put("authorName", AttributeValue.fromS("Ada King"));

        String page = ETags.of(List.of(PROFILE, comment));
        assertNotEquals(ETags.of(PROFILE), page);
        assertNotEquals(page, ETags.of(List.of(PROFILE, renamed)));
        assertNotEquals(page, ETags.of(List.of(PROFILE)));
        assertNotEquals(page, ETags.of(List.of(comment, PROFILE)));
        assertEquals(page, ETags.of(List.of(new HashMap<>(PROFILE), new HashMap<>(comment))));
    }

    /** The tag others get names the same state as the owner's: If-Match takes either, and no other state's. */
    @Test
    void ifMatchTakesTheTagOthersGetAsTheOwnersButNoOtherStates() {
        String owners = ETags.of(PROFILE);
        String others = ETags.withoutOwnersFields(owners);
        Map<String, AttributeValue> renamed = new HashMap<>(PROFILE);
        renamed.put("name", AttributeValue.fromS("Ada King"));

        assertNotEquals(owners, others);
        assertTrue(ETags.matches(others, owners));
        assertTrue(ETags.matches("\"x\", " + owners, owners));
        assertFalse(ETags.matches(others, ETags.of(renamed)));
        assertFalse(ETags.matches(ETags.withoutOwnersFields(ETags.of(renamed)), owners));
    }

    /** If-None-Match compares weakly (RFC 9110): a tag a proxy weakened still names the representation. */
    @Test
    void ifNoneMatchNamesTheRepresentationByItsTagWeakOrStrong() {
        String tag = "\"abc123\"";
        assertTrue(ETags.holdsThisRepresentation(tag, tag));
        assertTrue(ETags.holdsThisRepresentation("W/" + tag, tag));
        assertTrue(ETags.holdsThisRepresentation("\"other\", W/" + tag, tag));
        assertTrue(ETags.holdsThisRepresentation("*", tag));
        assertFalse(ETags.holdsThisRepresentation("W/\"other\"", tag));
        assertFalse(ETags.holdsThisRepresentation("abc123", tag), "an unquoted value is no tag of it");
    }
}
