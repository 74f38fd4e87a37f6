package dev.cabinet.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
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
}
