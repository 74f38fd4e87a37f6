package dev.cabinet.query;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cabinet.http.ProblemException;
import dev.cabinet.http.Problems;

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
            throw invalid("it cannot be read");
        }
        if (key == null || !key.keySet().equals(keyAttributes)) {
            throw invalid("it does not hold this list's key");
        }
        if (!partition.equals(key.get(partitionAttribute))) {
            throw invalid("it belongs to another list");
        }
        return key;
    }

    /** A merged read's cursor: one position per shard, in shard order. */
    public String encodeShards(ShardedCursor cursor) {
        try {
            return seal(Base64.getUrlEncoder().withoutPadding().encodeToString(json.writeValueAsBytes(cursor)));
        } catch (Exception e) {
            throw new IllegalStateException("cannot encode a cursor", e);
        }
    }

    /** The per-shard positions a merged read's cursor carries, checked to belong to {@code list} and its shards. */
    public List<ShardPosition> decodeShards(String cursor, String list, int shardCount) {
        ShardedCursor decoded;
        try {
            decoded = json.readValue(Base64.getUrlDecoder().decode(unseal(cursor).getBytes(StandardCharsets.US_ASCII)),
                    ShardedCursor.class);
        } catch (Exception e) {
            throw invalid("it cannot be read");
        }
        if (decoded == null || !list.equals(decoded.list())) {
            throw invalid("it belongs to another list");
        }
        if (decoded.shards() == null || decoded.shards().size() != shardCount) {
            throw invalid("it does not hold one position per shard of this list");
        }
        for (ShardPosition position : decoded.shards()) {
            if (position == null || position.done() && position.last() != null) {
                throw invalid("it does not hold this list's positions");
            }
        }
        return decoded.shards();
    }

    /** A cursor that was not made by this service for this list: a 400 naming the cursor. */
    private static ProblemException invalid(String reason) {
        return Problems.badRequest("cursor", "is not valid for this list: " + reason);
    }

    private static String seal(String payload) {
        return payload;
    }

    private static String unseal(String cursor) {
        return cursor;
    }
}
