package dev.cabinet.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;

/**
 * Keys a throttled partition leaves unprocessed are asked for again after growing pauses, a bounded number of times,
 * then the call fails as throttled (which the projector retries, and a request answers 503): resent at once, without
 * end, they kept the partition saturated until the request's deadline.
 */
class UnprocessedRetriesTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    void keysLeftUnprocessedAreAskedAgainAfterGrowingPausesThenFailAsThrottled() {
        List<Long> sentAt = new ArrayList<>();
        RuntimeException failure = assertThrows(RuntimeException.class, () -> BatchGets.all("t",
                List.of(new Key("P#1", "A"), new Key("P#1", "B")), true, UnprocessedRetries.FOR_REQUESTS, request -> {
                    sentAt.add(System.nanoTime());
                    return Uni.createFrom().item(BatchGetItemResponse.builder().responses(Map.of())
                            .unprocessedKeys(request.requestItems()).build());
                }).await().atMost(WAIT));

        assertTrue(TransientStoreErrors.isTransient(failure), "a throttling error: " + failure);
        assertTrue(failure.getMessage().contains("unprocessed after 4 rounds"), failure.getMessage());
        assertEquals(UnprocessedRetries.FOR_REQUESTS + 1, sentAt.size(), "the call and each round's resend");
        for (int round = 0; round < UnprocessedRetries.FOR_REQUESTS; round++) {
            long pausedMs = (sentAt.get(round + 1) - sentAt.get(round)) / 1_000_000;
            // A lower bound only: each pause is at least half its round's ceiling, 50 ms doubling.
            assertTrue(pausedMs >= (50L << round) / 2, "round " + round + " paused " + pausedMs + " ms");
        }
    }

    @Test
    void keysAnsweredOnAResendAreJoinedToTheFirstAnswer() {
        Map<String, AttributeValue> a = new Key("P#1", "A").toAttributes();
        Map<String, AttributeValue> b = new Key("P#1", "B").toAttributes();
        List<BatchGetItemRequest> sent = new ArrayList<>();
        List<Map<String, AttributeValue>> found = BatchGets.all("t", List.of(new Key("P#1", "A"), new Key("P#1", "B")),
                true, UnprocessedRetries.FOR_REQUESTS, request -> {
                    sent.add(request);
                    return Uni.createFrom().item(sent.size() == 1
                            ? BatchGetItemResponse.builder().responses(Map.of("t", List.of(a)))
                                    .unprocessedKeys(Map.of("t", KeysAndAttributes.builder().keys(List.of(b)).build()))
                                    .build()
                            : BatchGetItemResponse.builder().responses(Map.of("t", List.of(b))).build());
                }).await().atMost(WAIT);

        assertEquals(List.of(a, b), found);
        assertEquals(List.of(b), sent.get(1).requestItems().get("t").keys());
    }

    @Test
    void pausesDoubleUpToASecond() {
        for (int round = 0; round < 12; round++) {
            long ceiling = Math.min(1000, 50L << round);
            long pause = UnprocessedRetries.pause(round).toMillis();
            assertTrue(pause >= ceiling / 2 && pause <= ceiling, "round " + round + ": " + pause + " ms");
        }
    }
}
