package dev.cabinet.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class CoalescedReadsTest {

    /** Each call made, as the keys it asked for, with the future that answers it. */
    private final List<List<Key>> calls = new ArrayList<>();
    private final List<CompletableFuture<List<Map<String, AttributeValue>>>> answers = new ArrayList<>();
    private final CoalescedReads reads = new CoalescedReads(2,
            key -> call(List.of(key)).map(items -> items.stream().findFirst()),
            this::call);

    private Uni<List<Map<String, AttributeValue>>> call(List<Key> keys) {
        calls.add(keys);
        CompletableFuture<List<Map<String, AttributeValue>>> answer = new CompletableFuture<>();
        answers.add(answer);
        return Uni.createFrom().completionStage(answer);
    }

    /** Answers call {@code n} with an item for each of its keys but those named absent. */
    private void answer(int n, Key... absent) {
        answers.get(n).complete(calls.get(n).stream().filter(key -> !List.of(absent).contains(key))
                .map(CoalescedReadsTest::item).toList());
    }

    @Test
    void readsGoOutAtOnceWhileFewerThanTheLimitAreInFlight() {
        reads.read(List.of(key("a")), null);
        reads.read(List.of(key("b"), key("c")), null);
        assertEquals(List.of(List.of(key("a")), List.of(key("b"), key("c"))), calls);
        assertEquals(0, reads.queued());
    }

    @Test
    void readsAskedForWhileTheLimitIsInFlightShareOneCallWithEachKeyOnce() {
        reads.read(List.of(key("a")), null);
        reads.read(List.of(key("b")), null);
        CompletionStage<Map<Key, Map<String, AttributeValue>>> third = reads.read(List.of(key("root1"), key("user")), null);
        CompletionStage<Map<Key, Map<String, AttributeValue>>> fourth = reads.read(List.of(key("root2"), key("user")), null);
        assertEquals(2, calls.size(), "the third and fourth wait");
        assertEquals(2, reads.queued());

        answer(0);
        assertEquals(List.of(key("root1"), key("user"), key("root2")), calls.get(2), "one call, the shared key once");
        answer(2, key("root2"));

        Map<Key, Map<String, AttributeValue>> thirdFound = third.toCompletableFuture().join();
        Map<Key, Map<String, AttributeValue>> fourthFound = fourth.toCompletableFuture().join();
        assertEquals(item(key("root1")), thirdFound.get(key("root1")));
        assertEquals(item(key("user")), fourthFound.get(key("user")));
        assertFalse(fourthFound.containsKey(key("root2")), "an absent item is not in the answer");
    }

    @Test
    void aSingleKeyIsOneGetAndAFailedCallFailsEveryCallerOfItAndTheQueueGoesOn() {
        reads.read(List.of(key("a")), null);
        reads.read(List.of(key("b")), null);
        CompletionStage<Map<Key, Map<String, AttributeValue>>> third = reads.read(List.of(key("c")), null);
        CompletionStage<Map<Key, Map<String, AttributeValue>>> fourth = reads.read(List.of(key("c")), null);
        answers.get(0).completeExceptionally(new IllegalStateException("throttled"));
        assertEquals(List.of(key("c")), calls.get(2));
        answers.get(2).completeExceptionally(new IllegalStateException("throttled"));
        assertTrue(third.toCompletableFuture().isCompletedExceptionally());
        assertTrue(fourth.toCompletableFuture().isCompletedExceptionally());

        CompletionStage<Map<Key, Map<String, AttributeValue>>> fifth = reads.read(List.of(key("d")), null);
        assertEquals(4, calls.size(), "a slot was free again: the fifth went at once");
        answer(3);
        assertEquals(item(key("d")), fifth.toCompletableFuture().join().get(key("d")));
    }

    @Test
    void waitingReadsBeyondOneBatchGetItemGoInCallsOfWholeRequests() {
        reads.read(List.of(key("a")), null);
        reads.read(List.of(key("b")), null);
        List<CompletionStage<Map<Key, Map<String, AttributeValue>>>> waiting = new ArrayList<>();
        IntStream.range(0, 40).forEach(i -> waiting.add(reads.read(List.of(key("r" + i), key("t" + i),
                key("u" + i)), null)));

        answer(0);
        assertEquals(99, calls.get(2).size(), "33 requests of 3 keys: a 34th would pass 100 keys");
        answer(1);
        assertEquals(21, calls.get(3).size(), "the other 7 requests");
        answer(2);
        answer(3);
        for (int i = 0; i < 40; i++) {
            Map<Key, Map<String, AttributeValue>> found = waiting.get(i).toCompletableFuture().join();
            assertTrue(found.keySet().containsAll(List.of(key("r" + i), key("t" + i), key("u" + i))), "request " + i);
        }
        assertEquals(0, reads.queued());
    }

    private static Key key(String name) {
        return new Key("TEST#" + name, "ITEM");
    }

    private static Map<String, AttributeValue> item(Key key) {
        return Map.of(Key.PK, AttributeValue.fromS(key.pk()), Key.SK, AttributeValue.fromS(key.sk()),
                "name", AttributeValue.fromS(key.pk()));
    }
}
