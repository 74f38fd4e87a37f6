package dev.cabinet.table.query;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Turns a Query's LastEvaluatedKey (or a merged read's shard positions) into an opaque cursor and back. A cursor is
 * signed with HMAC-SHA256 over the list it belongs to and its content ({@code cabinet.query.cursor-secret}), so a
 * forged, altered or foreign cursor is refused with a 400 before anything is read; the decoded key must moreover name
 * the partition of the list being read.
 */
@ApplicationScoped
public class CursorCodec {

    private static final TypeReference<TreeMap<String, String>> KEY_MAP = new TypeReference<>() {
    };
    private static final TypeReference<List<ShardPosition>> SHARD_POSITIONS = new TypeReference<>() {
    };
    private static final String ALGORITHM = "HmacSHA256";
    /** The shortest secret accepted: 32 characters, 256 bits when random. */
    static final int MIN_SECRET_LENGTH = 32;

    private final ObjectMapper json;
    private final SecretKeySpec key;

    @Inject
    CursorCodec(ObjectMapper json, QueryConfig config) {
        this(json, config.cursorSecret());
    }

    CursorCodec(ObjectMapper json, String secret) {
        if (secret == null || secret.length() < MIN_SECRET_LENGTH) {
            throw new IllegalStateException("cabinet.query.cursor-secret must be at least " + MIN_SECRET_LENGTH
                    + " characters (it signs list cursors; give every instance the same one)");
        }
        this.json = json;
        this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), ALGORITHM);
    }

    /** The cursor that continues {@code list} after {@code lastKey}. */
    public String encode(String list, Map<String, String> lastKey) {
        return seal(list, write(new TreeMap<>(lastKey)));
    }

    /**
     * The start key a cursor of {@code list} carries, checked to hold exactly {@code keyAttributes} and to stay in
     * {@code partition}.
     */
    public Map<String, String> decode(String cursor, String list, String partitionAttribute, String partition,
            Set<String> keyAttributes) {
        Map<String, String> key = read(unseal(list, cursor), KEY_MAP);
        if (key == null || !key.keySet().equals(keyAttributes)) {
            throw invalid("it does not hold this list's key");
        }
        if (!partition.equals(key.get(partitionAttribute))) {
            throw invalid("it belongs to another list");
        }
        return key;
    }

    /** A merged read's cursor: one position per shard, in shard order. */
    public String encodeShards(String list, List<ShardPosition> positions) {
        return seal(list, write(positions));
    }

    /** The per-shard positions a merged read's cursor of {@code list} carries, one per shard. */
    public List<ShardPosition> decodeShards(String cursor, String list, int shardCount) {
        List<ShardPosition> positions = read(unseal(list, cursor), SHARD_POSITIONS);
        if (positions == null || positions.size() != shardCount) {
            throw invalid("it does not hold one position per shard of this list");
        }
        for (ShardPosition position : positions) {
            if (position == null || position.done() && position.last() != null) {
                throw invalid("it does not hold this list's positions");
            }
        }
        return positions;
    }

    private String write(Object content) {
        try {
            return Base64.getUrlEncoder().withoutPadding().encodeToString(json.writeValueAsBytes(content));
        } catch (Exception e) {
            throw new IllegalStateException("cannot encode a cursor", e);
        }
    }

    private <T> T read(String payload, TypeReference<T> type) {
        try {
            return json.readValue(Base64.getUrlDecoder().decode(payload.getBytes(StandardCharsets.US_ASCII)), type);
        } catch (Exception e) {
            throw invalid("it cannot be read");
        }
    }

    private String seal(String list, String payload) {
        return payload + "." + signature(list, payload);
    }

    private String unseal(String list, String cursor) {
        int dot = cursor.lastIndexOf('.');
        if (dot <= 0 || !MessageDigest.isEqual(cursor.substring(dot + 1).getBytes(StandardCharsets.US_ASCII),
                signature(list, cursor.substring(0, dot)).getBytes(StandardCharsets.US_ASCII))) {
            throw invalid("it was not made by this service for this list, or it was altered");
        }
        return cursor.substring(0, dot);
    }

    private String signature(String list, String payload) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            mac.update(list.getBytes(StandardCharsets.UTF_8));
            mac.update((byte) '\n');
            return Base64.getUrlEncoder().withoutPadding().encodeToString(
                    mac.doFinal(payload.getBytes(StandardCharsets.US_ASCII)));
        } catch (Exception e) {
            throw new IllegalStateException("cannot sign a cursor", e);
        }
    }

    /** A cursor that was not made by this service for this list: the web layer's 400 names the cursor. */
    private static InvalidQueryException invalid(String reason) {
        return new InvalidQueryException("cursor", "is not valid for this list: " + reason);
    }
}
