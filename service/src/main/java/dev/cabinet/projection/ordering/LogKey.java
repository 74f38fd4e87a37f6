package dev.cabinet.projection.ordering;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The log's key a record belongs to: its topic and Kafka key (records without a key form one per partition), the unit
 * whose order the engine keeps and that parks as a whole. Not the aggregate's stream
 * ({@link dev.cabinet.projection.StreamTarget}): a like is keyed by its user, its stream is the like of one post by one
 * user. {@link #id()} is a valid Cabinet id derived from both, as the key may hold any text. A record another producer
 * put on another partition than its key's ({@code misplaced}) parks a key of its own, with that partition in its id:
 * it has no order with its key's events, which go on without it, and a key's parked events stay on one partition.
 */
public record LogKey(String topic, int partition, String recordKey, boolean misplaced) {

    /** The key of a record on its key's partition (or of one without a key). */
    public LogKey(String topic, int partition, String recordKey) {
        this(topic, partition, recordKey, false);
    }

    public static LogKey of(ConsumerRecord<String, ?> record) {
        return new LogKey(record.topic(), record.partition(), record.key());
    }

    /** The key a record parks under when it is not on its key's partition. */
    public static LogKey misplaced(ConsumerRecord<String, ?> record) {
        return new LogKey(record.topic(), record.partition(), record.key(), record.key() != null);
    }

    /** {@code cabinet-posts_} followed by 22 characters of a SHA-256 of the key: readable topic, fixed length. */
    public String id() {
        String stream = recordKey == null ? "p:" + partition
                : misplaced ? "m:" + partition + ":" + recordKey : "k:" + recordKey;
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(stream.getBytes(StandardCharsets.UTF_8));
            String topicId = topic.replaceAll("[^A-Za-z0-9_-]", "-");
            return topicId.substring(0, Math.min(topicId.length(), 40)) + "_"
                    + Base64.getUrlEncoder().withoutPadding().encodeToString(hash).substring(0, 22);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
