package dev.cabinet.shared;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.junit.jupiter.api.Test;

class CoalescedWritesTest {

    /** The writes asked for, each with the future that ends it. */
    private final List<String> writes = new ArrayList<>();
    private final List<CompletableFuture<Void>> pending = new ArrayList<>();
    private final CoalescedWrites<String, Long, Void> progress = CoalescedWrites.of((partition, offsets) -> {
        writes.add(partition + "@" + offsets);
        CompletableFuture<Void> write = new CompletableFuture<>();
        pending.add(write);
        return write;
    });

    @Test
    void whatIsAskedForDuringAWriteGoesOutTogetherInTheNextOne() {
        CompletionStage<Void> first = progress.record("p0", 10L);
        CompletionStage<Void> second = progress.record("p0", 12L);
        CompletionStage<Void> third = progress.record("p0", 15L);
        assertEquals(List.of("p0@[10]"), writes, "one write in flight per key");

        pending.get(0).complete(null);
        assertTrue(first.toCompletableFuture().isDone());
        assertFalse(second.toCompletableFuture().isDone());
        assertEquals(List.of("p0@[10]", "p0@[12, 15]"), writes, "the next write carries both that waited");

        pending.get(1).complete(null);
        assertTrue(second.toCompletableFuture().isDone() && third.toCompletableFuture().isDone());
        assertEquals(2, writes.size());
    }

    @Test
    void keysAreWrittenIndependently() {
        progress.record("p0", 1L);
        progress.record("p1", 7L);
        assertEquals(List.of("p0@[1]", "p1@[7]"), writes);
    }

    @Test
    void aFailedWriteFailsItsWaitersAndTheNextRecordWritesAgain() {
        CompletionStage<Void> first = progress.record("p0", 3L);
        pending.get(0).completeExceptionally(new IllegalStateException("store"));
        assertTrue(first.toCompletableFuture().isCompletedExceptionally());
        CompletionStage<Void> again = progress.record("p0", 3L);
        assertEquals(List.of("p0@[3]", "p0@[3]"), writes);
        pending.get(1).complete(null);
        assertTrue(again.toCompletableFuture().isDone() && !again.toCompletableFuture().isCompletedExceptionally());
    }

    @Test
    void settledWaitsForEverythingAskedForSoFarAndNeverFails() {
        progress.record("p0", 1L);
        progress.record("p0", 2L);
        progress.record("p1", 5L);
        CompletableFuture<Void> settled = progress.settled().toCompletableFuture();
        progress.record("p2", 9L);
        pending.get(0).complete(null);
        assertEquals(List.of("p0@[1]", "p1@[5]", "p2@[9]", "p0@[2]"), writes);
        assertFalse(settled.isDone(), "p0's second write and p1's are still to come");

        pending.get(1).completeExceptionally(new IllegalStateException("store"));
        pending.get(3).complete(null);
        assertTrue(settled.isDone() && !settled.isCompletedExceptionally(), "a failure is its waiter's to report");
        assertFalse(progress.settled().toCompletableFuture().isDone(), "p2, asked for later, is still in flight");
    }

    @Test
    void eachValueGetsItsOwnAnswerFromTheWriteThatCarriedIt() {
        List<CompletableFuture<List<String>>> answers = new ArrayList<>();
        CoalescedWrites<String, Integer, String> counts = new CoalescedWrites<>((key, deltas) -> {
            CompletableFuture<List<String>> answer = new CompletableFuture<>();
            answers.add(answer);
            return answer;
        });
        CompletionStage<String> first = counts.record("c", 1);
        CompletionStage<String> second = counts.record("c", 2);
        CompletionStage<String> third = counts.record("c", 3);
        answers.get(0).complete(List.of("one"));
        answers.get(1).complete(List.of("two", "three"));
        assertEquals("one", first.toCompletableFuture().join());
        assertEquals("two", second.toCompletableFuture().join());
        assertEquals("three", third.toCompletableFuture().join());
    }
}
