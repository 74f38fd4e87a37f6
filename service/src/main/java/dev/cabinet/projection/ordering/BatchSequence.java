package dev.cabinet.projection.ordering;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * The batches of one consumer that are in flight at the same time: each batch's events run as soon as it arrives (their
 * keys' order is {@link KeyedChains}'), but batches <em>finish</em> in arrival order: a batch's progress is recorded and
 * its offsets acknowledged only after every earlier batch has finished, so nothing is committed past unfinished work.
 * {@link #room()} lets the consumer fetch its next batch while fewer than {@code limit} events of its batches are
 * unfinished. The limit counts events, not batches: at a low rate every poll brings a batch of one or two events, and a
 * limit of a few batches made an arriving event wait in the connector's queue until the oldest of them finished
 * (most of its freshness), while a backlog's batches of hundreds of events are held to the same bound as before.
 */
public final class BatchSequence {

    private final int limit;
    private int events;
    private final List<CompletableFuture<Void>> waiting = new ArrayList<>();
    private CompletableFuture<Void> last = CompletableFuture.completedFuture(null);

    BatchSequence(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("at least one event in flight, not " + limit);
        }
        this.limit = limit;
    }

    /**
     * Adds a batch of {@code size} events whose events are applied when {@code applied} completes; {@code finish}
     * (recording its progress) runs once that and every earlier batch have finished. The answer completes when the
     * batch has finished, or fails as the batch or an earlier one failed (a failed batch finishes nothing after it).
     */
    CompletableFuture<Void> add(CompletionStage<Void> applied, int size, Supplier<CompletionStage<Void>> finish) {
        CompletableFuture<Void> done;
        synchronized (this) {
            CompletableFuture<Void> previous = last;
            done = applied.toCompletableFuture()
                    .thenCompose(nothing -> previous)
                    .thenCompose(nothing -> finish.get());
            last = done;
            events += size;
        }
        done.whenComplete((nothing, failure) -> ended(size));
        return done;
    }

    /**
     * Completes when fewer than {@code limit} events are in flight (never fails: a failed batch reports itself). A batch
     * larger than the limit is still taken when the consumer has nothing in flight.
     */
    synchronized CompletionStage<Void> room() {
        if (events < limit) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> room = new CompletableFuture<>();
        waiting.add(room);
        return room;
    }

    /** How many events of unfinished batches there are. */
    synchronized int inFlight() {
        return events;
    }

    private void ended(int size) {
        List<CompletableFuture<Void>> opened;
        synchronized (this) {
            events -= size;
            if (events >= limit || waiting.isEmpty()) {
                return;
            }
            opened = List.copyOf(waiting);
            waiting.clear();
        }
        opened.forEach(room -> room.complete(null));
    }
}
