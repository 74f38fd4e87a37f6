package dev.cabinet.projection.ordering;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Keeps each key's work in order across batches that run at the same time: a batch takes a {@link Turn} for each of its
 * keys as it arrives, and its work for a key starts once the key's previous turn has finished, with the state that turn
 * left (the engine passes whether the key is parked). Keys without earlier work start at once. Turns are taken on
 * the consumer's thread in log order, so that order is the keys' order.
 */
final class KeyedChains<K, S> {

    /** A batch's turn for a key: {@code previous} completes when the key's earlier work is done; then {@code done}. */
    record Turn<S>(CompletionStage<S> previous, CompletableFuture<S> done) {

        /** Whether earlier work for the key was still running when the turn was taken. */
        boolean waited() {
            return previous != IDLE;
        }
    }

    private static final CompletableFuture<Object> IDLE = CompletableFuture.completedFuture(null);

    private final Map<K, CompletableFuture<S>> tails = new HashMap<>();

    /**
     * The next turn of {@code key}. Its {@code previous} completes with the state the key's last turn finished with
     * ({@code null} when the key has no unfinished turn), or fails as that turn failed. The caller must complete
     * {@code done}, whatever happens, or the key's later turns wait forever.
     */
    @SuppressWarnings("unchecked")
    synchronized Turn<S> next(K key) {
        CompletableFuture<S> previous = tails.get(key);
        CompletableFuture<S> done = new CompletableFuture<>();
        tails.put(key, done);
        // The last turn forgets the key when it ends, so the map holds only keys with work in flight.
        done.whenComplete((state, failure) -> forget(key, done));
        // The previous turn's own future belongs to the batch that took it: the next turn gets a view of it, which a
        // waiter cannot complete or cancel (Mutiny cancels the stage a Uni was made from when the Uni is cancelled).
        return new Turn<>(previous != null ? previous.minimalCompletionStage() : (CompletionStage<S>) IDLE, done);
    }

    /**
     * The next turns of a batch's keys, taken together: batches then wait only for earlier batches, never the other way
     * round, even when two consumers hand over batches with shared keys at the same time (after a partition moved
     * between them), so a batch whose concurrency is taken up by waiting keys cannot deadlock with another.
     */
    synchronized List<Turn<S>> next(List<K> keys) {
        List<Turn<S>> turns = new ArrayList<>(keys.size());
        for (K key : keys) {
            turns.add(next(key));
        }
        return turns;
    }

    /** How many keys have work in flight. */
    synchronized int size() {
        return tails.size();
    }

    private synchronized void forget(K key, CompletableFuture<S> done) {
        tails.remove(key, done);
    }
}
