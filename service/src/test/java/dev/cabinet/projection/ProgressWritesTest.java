package dev.cabinet.projection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.junit.jupiter.api.Test;

class ProgressWritesTest {

    /** The writes asked for, each with the future that ends it. */
    private final List<String> writes = new ArrayList<>();
    private final List<CompletableFuture<Void>> pending = new ArrayList<>();
    private final ProgressWrites<String> progress = new ProgressWrites<>((partition, offset) -> {
        writes.add(partition + "@" + offset);
        CompletableFuture<Void> write = new CompletableFuture<>();
        pending.add(write);
        return write;
    });

    @Test
    void batchesFinishingDuringAWriteShareTheNextOneWithTheHighestOffset() {
        CompletionStage<Void> first = progress.record("p0", 10);
        CompletionStage<Void> second = progress.record("p0", 12);
        CompletionStage<Void> third = progress.record("p0", 15);
        assertEquals(List.of("p0@10"), writes, "one write in flight per partition");

        pending.get(0).complete(null);
        assertTrue(first.toCompletableFuture().isDone());
        assertFalse(second.toCompletableFuture().isDone());
        assertEquals(List.of("p0@10", "p0@15"), writes, "the next write covers both batches that waited");

        pending.get(1).complete(null);
        assertTrue(second.toCompletableFuture().isDone() && third.toCompletableFuture().isDone());
        assertTrue(progress.record("p0", 14).toCompletableFuture().isDone(), "already recorded: no write");
        assertEquals(2, writes.size());
    }

    @Test
    void partitionsAreWrittenIndependently() {
        progress.record("p0", 1);
        progress.record("p1", 7);
        assertEquals(List.of("p0@1", "p1@7"), writes);
    }

    @Test
    void aFailedWriteFailsItsWaitersAndTheNextRecordWritesAgain() {
        CompletionStage<Void> first = progress.record("p0", 3);
        pending.get(0).completeExceptionally(new IllegalStateException("store"));
        assertTrue(first.toCompletableFuture().isCompletedExceptionally());
        CompletionStage<Void> again = progress.record("p0", 3);
        assertEquals(List.of("p0@3", "p0@3"), writes);
        pending.get(1).complete(null);
        assertTrue(again.toCompletableFuture().isDone() && !again.toCompletableFuture().isCompletedExceptionally());
    }
}
