package dev.cabinet.projection.failure;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletionException;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.header.Headers;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.Test;

import dev.cabinet.projection.ordering.LogKey;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;

/** What a dead letter's copy holds, and which failures of its send are retried until they pass. */
class DeadLetterCopyTest {

    private static final byte[] VALUE = "{\"postId\":\"p1\"}".getBytes(StandardCharsets.UTF_8);

    @Test
    void onlyAFailureTheProducerAnswersToThisVeryRecordNeverPasses() {
        assertTrue(DeadLetterTopic.neverPasses(new CompletionException(new RecordTooLargeException("1.2 MB"))));
        assertFalse(DeadLetterTopic.neverPasses(new TimeoutException("the broker did not answer")));
        assertFalse(DeadLetterTopic.neverPasses(new NotLeaderOrFollowerException("moving")));
        assertFalse(DeadLetterTopic.neverPasses(new TopicAuthorizationException("an operator may grant it")));
        assertFalse(DeadLetterTopic.neverPasses(new IllegalStateException("the emitter's buffer is full")));
    }

    @Test
    void aCopyKeepsTheRecordAndSaysWhy() {
        ConsumerRecord<String, byte[]> record = record();
        Message<byte[]> copy = DeadLetterTopic.copy(record, "no projector handles it", null, LogKey.of(record));
        assertArrayEquals(VALUE, copy.getPayload());
        Headers headers = metadata(copy).getHeaders();
        assertEquals("cabinet.post.created.v1", text(headers, "ce_type"));
        assertEquals("no projector handles it", text(headers, DeadLetterTopic.REASON));
        assertNull(headers.lastHeader(DeadLetterTopic.LEFT_OUT));
        assertEquals("p1", metadata(copy).getKey());
    }

    @Test
    void aCopyTooLargeToWriteWholeKeepsTheKeyAndTheWhyAndSaysWhatItLeftOut() {
        ConsumerRecord<String, byte[]> record = record();
        Message<byte[]> copy = DeadLetterTopic.copy(record, "x".repeat(5_000), new RecordTooLargeException("big"),
                LogKey.of(record));
        assertEquals(0, copy.getPayload().length);
        Headers headers = metadata(copy).getHeaders();
        assertNull(headers.lastHeader("ce_type"), "the original headers are left out too");
        assertEquals(1_001, text(headers, DeadLetterTopic.REASON).length(), "shortened, with an ellipsis");
        assertTrue(text(headers, DeadLetterTopic.LEFT_OUT).startsWith("the value (" + VALUE.length + " bytes)"));
        assertEquals("cabinet.posts", text(headers, DeadLetterTopic.TOPIC));
        assertEquals("7", text(headers, DeadLetterTopic.OFFSET));
        assertEquals("p1", metadata(copy).getKey());
    }

    private static ConsumerRecord<String, byte[]> record() {
        ConsumerRecord<String, byte[]> record = new ConsumerRecord<>("cabinet.posts", 2, 7, "p1", VALUE);
        record.headers().add("ce_type", "cabinet.post.created.v1".getBytes(StandardCharsets.UTF_8));
        return record;
    }

    @SuppressWarnings("unchecked")
    private static OutgoingKafkaRecordMetadata<String> metadata(Message<byte[]> copy) {
        return copy.getMetadata(OutgoingKafkaRecordMetadata.class).orElseThrow();
    }

    private static String text(Headers headers, String name) {
        return new String(headers.lastHeader(name).value(), StandardCharsets.UTF_8);
    }
}
