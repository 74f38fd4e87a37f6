package dev.cabinet.projection;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * The batches of one consumer that are in flight at the same time: each batch's events run as soon as it arrives (their
 * keys' order is {@link KeyedChains}'), but batches <em>finish</em> in arrival order: a batch's progress is recorded and
 * its offsets acknowledged only after every earlier batch has finished, so nothing is committed past unfinished work.
 * {@link #room()} lets the consumer fetch its next batch while at most {@code depth} are in flight.
 */
final class BatchSequence {

    private final int depth;
    private final Deque<CompletableFuture<Void>> inFlight = new ArrayDeque<>();
    private CompletableFuture<Void> last = CompletableFuture.completedFuture(null);

    BatchSequence(int depth) {
        if (depth < 1) {
            throw new IllegalArgumentException("at least one batch in flight, not " + depth);
        }
        this.depth = depth;
    }

    /**
     * Adds a batch whose events are applied when {@code applied} completes; {@code finish} (recording its progress)
     * runs once that and every earlier batch have finished. The answer completes when the batch has finished, or fails
     * as the batch or an earlier one failed (a failed batch finishes nothing after it).
     */
    synchronized CompletableFuture<Void> add(CompletionStage<Void> applied, Supplier<CompletionStage<Void>> finish) {
        CompletableFuture<Void> previous = last;
        CompletableFuture<Void> done = applied.toCompletableFuture()
                .thenCompose(nothing -> previous)
                .thenCompose(nothing -> finish.get());
        last = done;
        inFlight.addLast(done);
        return done;
    }

    /**
     * Completes when fewer than {@code depth} batches are in flight (never fails: a failed batch reports itself). Since
     * batches finish in order, that is when the oldest of them finishes.
     */
    synchronized CompletionStage<Void> room() {
        while (!inFlight.isEmpty() && inFlight.peekFirst().isDone()) {
            inFlight.removeFirst();
        }
        if (inFlight.size() < depth) {
            return CompletableFuture.completedFuture(null);
        }
        return inFlight.peekFirst().handle((nothing, failure) -> null);
    }

    /** How many batches have not finished. */
    synchronized int inFlight() {
        inFlight.removeIf(CompletableFuture::isDone);
        return inFlight.size();
    }
}
