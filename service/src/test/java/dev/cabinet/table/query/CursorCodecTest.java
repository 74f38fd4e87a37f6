package dev.cabinet.table.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

class CursorCodecTest {

    private static final Set<String> TABLE_KEYS = Set.of("pk", "sk");
    private static final String POSTS = "TABLE|USER#u1|BEGINS_WITH|POST#|null|desc";
    private static final String GROUPS = "TABLE|USER#u1|BEGINS_WITH|GROUP#|null|asc";
    private static final String FEED = "GSI1|POSTS#PUBLISHED#0|ANY|null|null|desc";
    private final CursorCodec codec = new CursorCodec(new ObjectMapper(), "a-test-secret-that-is-long-enough-32");

    @Test
    void aCursorRoundTripsToTheSameStartKey() {
        Map<String, String> key = Map.of("pk", "USER#u1", "sk", "POST#2026-01-01T00:00:00.000Z#p1");
        assertEquals(key, codec.decode(codec.encode(POSTS, key), POSTS, "pk", "USER#u1", TABLE_KEYS));
    }

    @Test
    void aCursorOfAnotherListIsRefusedEvenInTheSamePartition() {
        String cursor = codec.encode(POSTS, Map.of("pk", "USER#u1", "sk", "POST#x"));
        assertThrows(InvalidQueryException.class, () -> codec.decode(cursor, GROUPS, "pk", "USER#u1", TABLE_KEYS));
        assertThrows(InvalidQueryException.class, () -> codec.decode(cursor, POSTS.replace("u1", "u2"), "pk", "USER#u2",
                TABLE_KEYS));
    }

    @Test
    void anAlteredOrForgedCursorIsRefused() {
        String cursor = codec.encode(POSTS, Map.of("pk", "USER#u1", "sk", "POST#x"));
        String payload = cursor.substring(0, cursor.lastIndexOf('.'));
        String signature = cursor.substring(cursor.lastIndexOf('.'));
        String otherKey = Base64.getUrlEncoder().withoutPadding().encodeToString(
                "{\"pk\":\"USER#u1\",\"sk\":\"POST#y\"}".getBytes(StandardCharsets.UTF_8));
        assertThrows(InvalidQueryException.class, () -> codec.decode(otherKey + signature, POSTS, "pk", "USER#u1", TABLE_KEYS));
        assertThrows(InvalidQueryException.class, () -> codec.decode(payload, POSTS, "pk", "USER#u1", TABLE_KEYS));
        CursorCodec otherService = new CursorCodec(new ObjectMapper(), "another-secret-of-more-than-32-chars");
        assertThrows(InvalidQueryException.class, () -> otherService.decode(cursor, POSTS, "pk", "USER#u1", TABLE_KEYS));
    }

    @Test
    void garbageAndShortSecretsAreRefused() {
        assertThrows(InvalidQueryException.class, () -> codec.decode("not a cursor!", POSTS, "pk", "USER#u1", TABLE_KEYS));
        assertThrows(InvalidQueryException.class, () -> codec.decode(".", POSTS, "pk", "USER#u1", TABLE_KEYS));
        assertThrows(IllegalStateException.class, () -> new CursorCodec(new ObjectMapper(), "short"));
    }

    @Test
    void aShardedCursorRoundTripsAndIsBoundToItsListAndShardCount() {
        List<ShardPosition> positions = List.of(ShardPosition.after("2026-01-01T00:00:00.000Z#p1"), ShardPosition.DONE);
        String encoded = codec.encodeShards(FEED, positions);
        assertEquals(positions, codec.decodeShards(encoded, FEED, 2));
        assertThrows(InvalidQueryException.class, () -> codec.decodeShards(encoded, "GSI2|ORDERS#2026-01-01#0|ANY", 2));
        assertThrows(InvalidQueryException.class, () -> codec.decodeShards(encoded, FEED, 4));
        String contradictory = codec.encodeShards(FEED, List.of(new ShardPosition("x", true), ShardPosition.START));
        assertThrows(InvalidQueryException.class, () -> codec.decodeShards(contradictory, FEED, 2));
    }
}
