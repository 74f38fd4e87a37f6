package dev.cabinet.query;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Turns a Query's LastEvaluatedKey into an opaque cursor and back. The decoded key must name the same partition as the
 * list being read, so a cursor can never move a read to another key; {@link #seal}/{@link #unseal} are the single place
 * where a signature will be added.
 */
@ApplicationScoped
public class CursorCodec {

    private static final TypeReference<TreeMap<String, String>> KEY_MAP = new TypeReference<>() {
    };

    private final ObjectMapper json;

    CursorCodec(ObjectMapper json) {
        this.json = json;
    }

    public String encode(Map<String, String> lastKey) {
        try {
            return seal(Base64.getUrlEncoder().withoutPadding().encodeToString(json.writeValueAsBytes(new TreeMap<>(lastKey))));
        } catch (Exception e) {
            throw new IllegalStateException("cannot encode a cursor", e);
        }
    }

    /** The start key the cursor carries, checked to hold exactly {@code keyAttributes} and to stay in {@code partition}. */
    public Map<String, String> decode(String cursor, String partitionAttribute, String partition,
            Set<String> keyAttributes) {
        Map<String, String> key;
        try {
            key = json.readValue(Base64.getUrlDecoder().decode(unseal(cursor).getBytes(StandardCharsets.US_ASCII)), KEY_MAP);
        } catch (Exception e) {
            throw new InvalidCursorException("it cannot be read");
        }
        if (key == null || !key.keySet().equals(keyAttributes)) {
            throw new InvalidCursorException("it does not hold this list's key");
        }
        if (!partition.equals(key.get(partitionAttribute))) {
            throw new InvalidCursorException("it belongs to another list");
        }
        return key;
    }

    private static String seal(String payload) {
        return payload;
    }

    private static String unseal(String cursor) {
        return cursor;
    }
}
