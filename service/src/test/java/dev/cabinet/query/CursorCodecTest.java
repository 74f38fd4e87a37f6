package dev.cabinet.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cabinet.http.ProblemException;

class CursorCodecTest {

    private static final Set<String> TABLE_KEYS = Set.of("pk", "sk");
    private final CursorCodec codec = new CursorCodec(new ObjectMapper());

    @Test
    void aCursorRoundTripsToTheSameStartKey() {
        Map<String, String> key = Map.of("pk", "USER#u1", "sk", "POST#2026-01-01T00:00:00.000Z#p1");
        assertEquals(key, codec.decode(codec.encode(key), "pk", "USER#u1", TABLE_KEYS));
    }

    @Test
    void aCursorOfAnotherListIsRefused() {
        String cursor = codec.encode(Map.of("pk", "USER#u1", "sk", "POST#x"));
        assertThrows(ProblemException.class, () -> codec.decode(cursor, "pk", "USER#u2", TABLE_KEYS));
    }

    @Test
    void aCursorWithOtherKeyAttributesIsRefused() {
        String cursor = codec.encode(Map.of("pk", "USER#u1", "sk", "POST#x", "gsi1pk", "X"));
        assertThrows(ProblemException.class, () -> codec.decode(cursor, "pk", "USER#u1", TABLE_KEYS));
    }

    @Test
    void garbageIsRefused() {
        assertThrows(ProblemException.class, () -> codec.decode("not a cursor!", "pk", "USER#u1", TABLE_KEYS));
        String notAnObject = Base64.getUrlEncoder().encodeToString("[1,2]".getBytes(StandardCharsets.UTF_8));
        assertThrows(ProblemException.class, () -> codec.decode(notAnObject, "pk", "USER#u1", TABLE_KEYS));
    }

    @Test
    void aShardedCursorRoundTripsAndIsBoundToItsListAndShardCount() {
        ShardedCursor cursor = new ShardedCursor("POSTS#PUBLISHED#0",
                List.of(ShardPosition.after("2026-01-01T00:00:00.000Z#p1"), ShardPosition.DONE));
        String encoded = codec.encodeShards(cursor);
        assertEquals(cursor.shards(), codec.decodeShards(encoded, "POSTS#PUBLISHED#0", 2));
        assertThrows(ProblemException.class, () -> codec.decodeShards(encoded, "ORDERS#2026-01-01#0", 2));
        assertThrows(ProblemException.class, () -> codec.decodeShards(encoded, "POSTS#PUBLISHED#0", 4));
        String contradictory = codec.encodeShards(new ShardedCursor("POSTS#PUBLISHED#0",
                List.of(new ShardPosition("x", true), ShardPosition.START)));
        assertThrows(ProblemException.class, () -> codec.decodeShards(contradictory, "POSTS#PUBLISHED#0", 2));
        assertThrows(ProblemException.class, () -> codec.decodeShards(codec.encode(Map.of("pk", "POSTS#PUBLISHED#0")),
                "POSTS#PUBLISHED#0", 2));
    }
}
